// Models SHOC's Spmv (CSR sparse matrix-vector product), written here from its description of the
// vector kernel: one warp per row, lanes striding through the row's non-zeros 32 at a time, then a
// reduction of the 32 partial sums in shared memory; and the scalar kernel, one row per thread.
__global__ void spmv_csr_vector_kernel(const float* __restrict__ val, const int* __restrict__ cols,
                                       const int* __restrict__ rowDelimiters, const float* __restrict__ vec,
                                       const int dim, float* __restrict__ out) {
    int t = threadIdx.x;
    int id = t & (warpSize - 1);
    int warpsPerBlock = blockDim.x / warpSize;
    int myRow = (blockIdx.x * warpsPerBlock) + (t / warpSize);
    __shared__ volatile float partialSums[128];
    if (myRow < dim) {
        int warpStart = rowDelimiters[myRow];
        int warpEnd = rowDelimiters[myRow + 1];
        float mySum = 0;
        for (int j = warpStart + id; j < warpEnd; j += warpSize) {
            int col = cols[j];
            mySum += val[j] * vec[col];
        }
        partialSums[t] = mySum;
        if (id < 16) partialSums[t] = mySum = mySum + partialSums[t + 16];
        if (id < 8) partialSums[t] = mySum = mySum + partialSums[t + 8];
        if (id < 4) partialSums[t] = mySum = mySum + partialSums[t + 4];
        if (id < 2) partialSums[t] = mySum = mySum + partialSums[t + 2];
        if (id < 1) partialSums[t] = mySum = mySum + partialSums[t + 1];
        if (id == 0) {
            out[myRow] = partialSums[t];
        }
    }
}

__global__ void spmv_csr_scalar_kernel(const float* __restrict__ val, const int* __restrict__ cols,
                                       const int* __restrict__ rowDelimiters, const float* __restrict__ vec,
                                       const int dim, float* __restrict__ out) {
    int myRow = blockIdx.x * blockDim.x + threadIdx.x;
    if (myRow < dim) {
        float t = 0.0f;
        int start = rowDelimiters[myRow];
        int end = rowDelimiters[myRow + 1];
        for (int j = start; j < end; j++) {
            int col = cols[j];
            t += val[j] * vec[col];
        }
        out[myRow] = t;
    }
}
