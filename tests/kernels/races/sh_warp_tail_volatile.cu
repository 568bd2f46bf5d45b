// race-suite: race
// memory: shared
// between: lanes-of-a-warp
// launch: block=128 grid=4
// args: float32[512], float32[4]:zeros
// The unrolled last-warp reduction over a volatile array relies on lock-step lanes, which Volta
// and later do not guarantee.
extern "C" __global__ void sh_warp_tail_volatile(const float* x, float* y)
{
    __shared__ volatile float part[128];
    int t = threadIdx.x;
    part[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
    if (t < 64) part[t] += part[t + 64];
    __syncthreads();
    if (t < 32) {
        part[t] += part[t + 32];                            // RACE
        part[t] += part[t + 16];                            // RACE
        part[t] += part[t + 8];                             // RACE
        part[t] += part[t + 4];                             // RACE
        part[t] += part[t + 2];                             // RACE
        part[t] += part[t + 1];                             // RACE
    }
    if (t == 0) y[blockIdx.x] = part[0];
}
