// Models Rodinia's gaussian (Gaussian elimination), written here from its description: for pivot
// t, Fan1 computes one multiplier per row below the pivot (a column of the row-major matrix, so
// lanes are a row apart), Fan2 updates the trailing sub-matrix with a 2-D grid and the right-hand
// side from the threads of column 0.
__global__ void Fan1(float* m_cuda, float* a_cuda, int Size, int t) {
    if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;
    *(m_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) =
        *(a_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) / *(a_cuda + Size * t + t);
}

__global__ void Fan2(float* m_cuda, float* a_cuda, float* b_cuda, int Size, int j1, int t) {
    if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;
    if (threadIdx.y + blockIdx.y * blockDim.y >= Size - t) return;
    int xidx = blockIdx.x * blockDim.x + threadIdx.x;
    int yidx = blockIdx.y * blockDim.y + threadIdx.y;
    a_cuda[Size * (xidx + 1 + t) + (yidx + t)] -= m_cuda[Size * (xidx + 1 + t) + t] * a_cuda[Size * t + (yidx + t)];
    if (yidx == 0) {
        b_cuda[xidx + 1 + t] -= m_cuda[Size * (xidx + 1 + t) + (yidx + t)] * b_cuda[t];
    }
}
