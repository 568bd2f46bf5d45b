// race-suite: race-free
// memory: global
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros, int32=512
// The smoothing reads one buffer and writes another.
extern "C" __global__ void gl_neighbor_separate_buffers(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n) y[i] = 0.5f * (x[i] + x[i + 1]);
}
