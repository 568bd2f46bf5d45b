// race-suite: race-free
// memory: shared
// between: lanes-of-a-warp
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// The warp rotation with __syncwarp between the store and the load.
extern "C" __global__ void sh_warp_rotate_with_syncwarp(const float* x, float* y)
{
    __shared__ float buf[128];
    int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    int i = blockIdx.x * 128 + threadIdx.x;
    buf[w * 32 + lane] = x[i];
    __syncwarp();
    y[i] = buf[w * 32 + (lane + 1) % 32];
}
