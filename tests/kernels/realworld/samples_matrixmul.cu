// Models NVIDIA cuda-samples' matrixMul, written here from its description: C = A * B with square
// BLOCK_SIZE tiles of A and B staged in shared memory, one output element per thread, the tile
// loop walking a row of A's tiles and a column of B's; BLOCK_SIZE is a template parameter and the
// host instantiates 32.
template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float* C, float* A, float* B, int wA, int wB) {
    int bx = blockIdx.x;
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int aBegin = wA * BLOCK_SIZE * by;
    int aEnd = aBegin + wA - 1;
    int aStep = BLOCK_SIZE;
    int bBegin = BLOCK_SIZE * bx;
    int bStep = BLOCK_SIZE * wB;
    float Csub = 0;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k) {
            Csub += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }
    int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = Csub;
}

#ifndef __CUDACC_RTC__
void MatrixMultiply(float* d_C, float* d_A, float* d_B, int wA, int wB, int hA) {
    const int block_size = 32;
    dim3 threads(block_size, block_size);
    dim3 grid(wB / threads.x, hA / threads.y);
    MatrixMulCUDA<32><<<grid, threads>>>(d_C, d_A, d_B, wA, wB);
}
#endif
