// race-suite: race
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// Threads t, t+32, t+64 and t+96 store different values into slot t % 32.
extern "C" __global__ void sh_waw_slot_per_warp(const float* x, float* y)
{
    __shared__ float slot[32];
    int i = blockIdx.x * 128 + threadIdx.x;
    slot[threadIdx.x % 32] = x[i];                          // RACE
    __syncthreads();
    y[i] = slot[threadIdx.x % 32];
}
