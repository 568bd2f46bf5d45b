// One block per row: the threads stride through the row once and count into a shared-memory
// histogram with shared atomics, then copy it out.
extern "C" __global__ void row_histogram(const int *x, int *hist, int rows, int cols)
{
    __shared__ int counts[256];
    counts[threadIdx.x] = 0;
    __syncthreads();
    const int *row = x + (long)blockIdx.x * cols;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        atomicAdd(&counts[row[c]], 1);
    __syncthreads();
    hist[(long)blockIdx.x * 256 + threadIdx.x] = counts[threadIdx.x];
}
