// race-suite: race
// memory: shared
// between: lanes-of-a-warp
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// Lanes rotate values through their warp's slice of shared memory without __syncwarp.
extern "C" __global__ void sh_warp_rotate_no_syncwarp(const float* x, float* y)
{
    __shared__ float buf[128];
    int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    int i = blockIdx.x * 128 + threadIdx.x;
    buf[w * 32 + lane] = x[i];                              // RACE
    y[i] = buf[w * 32 + (lane + 1) % 32];                   // RACE
}
