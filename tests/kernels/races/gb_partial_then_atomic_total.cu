// race-suite: race-free
// memory: global
// between: blocks
// launch: block=128 grid=4
// args: float32[512], float32[1]:zeros
// Every block adds its sum into the single total with an atomic.
extern "C" __global__ void gb_partial_then_atomic_total(const float* x, float* total)
{
    __shared__ float part[128];
    int t = threadIdx.x;
    part[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
    for (int s = 64; s > 0; s /= 2) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0) atomicAdd(total, part[0]);
}
