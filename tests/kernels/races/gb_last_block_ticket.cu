// race-suite: race-free
// memory: global
// between: blocks
// launch: block=128 grid=4
// args: float32[512], float32[4]:zeros, int32[1]:zeros, float32[1]:zeros
// The threadfence reduction: each block publishes its partial sum, takes a ticket, and only the
// block holding the last ticket reads the partials.
extern "C" __global__ void gb_last_block_ticket(const float* x, float* partial, unsigned int* count, float* total)
{
    __shared__ float part[128];
    __shared__ bool last;
    int t = threadIdx.x;
    part[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
    for (int s = 64; s > 0; s /= 2) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = part[0];
        __threadfence();
        unsigned int ticket = atomicInc(count, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && t == 0) {
        float sum = 0.0f;
        for (int b = 0; b < gridDim.x; b++) sum += partial[b];
        *total = sum;
    }
}
