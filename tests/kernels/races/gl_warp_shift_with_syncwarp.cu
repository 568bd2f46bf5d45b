// race-suite: race-free
// memory: global
// between: lanes-of-a-warp
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros, float32[512]:zeros
// The lane-to-lane exchange through global memory with __syncwarp, which orders memory among the
// lanes.
extern "C" __global__ void gl_warp_shift_with_syncwarp(const float* x, float* g, float* y)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    g[i] = x[i];
    __syncwarp();
    y[i] = g[(i & ~31) + ((i + 1) & 31)];
}
