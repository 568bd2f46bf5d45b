// race-suite: race
// memory: global
// between: lanes-of-a-warp
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros, float32[512]:zeros
// Lanes pass values to their neighbour through global memory with no __syncwarp.
extern "C" __global__ void gl_warp_shift_no_syncwarp(const float* x, float* g, float* y)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    g[i] = x[i];                                          // RACE
    y[i] = g[(i & ~31) + ((i + 1) & 31)];                 // RACE
}
