// race-suite: race-free
// memory: global
// between: blocks
// launch: block=128 grid=4
// args: float32[2048], int32=2048
// A grid-stride loop that updates every element in place, each by one thread.
extern "C" __global__ void gl_grid_stride_inplace(float* x, int n)
{
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += blockDim.x * gridDim.x)
        x[j] = x[j] * 2.0f;
}
