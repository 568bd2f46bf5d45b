// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], int32[64]:zeros
// A shared histogram updated with atomics between barriers.
extern "C" __global__ void sh_atomic_histogram(const float* x, int* y)
{
    __shared__ int hist[16];
    int t = threadIdx.x;
    if (t < 16) hist[t] = 0;
    __syncthreads();
    atomicAdd(&hist[t % 16], x[blockIdx.x * 128 + t] > 0.0f ? 1 : 0);
    __syncthreads();
    if (t < 16) y[blockIdx.x * 16 + t] = hist[t];
}
