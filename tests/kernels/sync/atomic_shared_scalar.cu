// Counts flagged elements with one shared counter that every lane increments.
extern "C" __global__ void atomic_shared_scalar(const int* flags, int* count)
{
    __shared__ int hits;
    if (threadIdx.x == 0)
        hits = 0;
    __syncthreads();
    if (flags[blockIdx.x * blockDim.x + threadIdx.x] != 0)
        atomicAdd(&hits, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(count, hits);
}
