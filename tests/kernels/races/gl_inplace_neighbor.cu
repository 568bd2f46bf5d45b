// race-suite: race
// memory: global
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], int32=512
// An in-place smoothing reads y[i + 1], which the next thread overwrites in the same statement.
extern "C" __global__ void gl_inplace_neighbor(float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n) y[i] = 0.5f * (y[i] + y[i + 1]);        // RACE
}
