// matmul_tiled.cu: C = A * B for row-major square matrices, naive and shared-memory tiled.
//
// Try:   kernelscope analyze --arg n=4096 examples/matmul_tiled.cu
//
// Binding n makes loop trip counts concrete, so the report can give FLOPs and bytes per
// thread and an arithmetic intensity. What to look for:
//   * matmul_naive: for every multiply-add each thread reads one float of A (a warp of 16 x 2
//     threads spans only two rows, so two addresses: nearly a broadcast) and one float of B
//     (consecutive columns: coalesced) from global memory: 2 FLOPs per 8 bytes, memory-bound.
//   * matmul_tiled: each TILE x TILE block of A and B is loaded once into shared memory and reused
//     TILE times, which raises the intensity by a factor of TILE. The two __syncthreads() calls
//     keep one iteration's loads from overwriting tiles another warp is still reading.
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_naive(const float* __restrict__ a, const float* __restrict__ b,
                             float* __restrict__ c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; ++k) {
            acc += a[row * n + k] * b[k * n + col];
        }
        c[row * n + col] = acc;
    }
}

// Assumes n is a multiple of TILE, as the launcher below guarantees by padding.
__global__ void matmul_tiled(const float* __restrict__ a, const float* __restrict__ b,
                             float* __restrict__ c, int n)
{
    __shared__ float a_tile[TILE][TILE];
    __shared__ float b_tile[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        a_tile[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
        b_tile[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
        __syncthreads();   // the tiles are complete before anyone reads them
#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            acc += a_tile[threadIdx.y][k] * b_tile[k][threadIdx.x];
        }
        __syncthreads();   // everyone is done reading before the next tiles overwrite them
    }
    c[row * n + col] = acc;
}

void matmul(const float* a, const float* b, float* c, int n, cudaStream_t stream)
{
    dim3 block(TILE, TILE);
    dim3 grid(n / TILE, n / TILE);
    matmul_naive<<<grid, block, 0, stream>>>(a, b, c, n);
    matmul_tiled<<<grid, block, 0, stream>>>(a, b, c, n);
}
