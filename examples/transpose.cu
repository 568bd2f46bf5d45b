// transpose.cu: three matrix transposes that move the same bytes at very different speeds.
//
// Try:   kernelscope analyze examples/transpose.cu
//
// What to look for in the report:
//   * transpose_naive: the load in[y * width + x] is coalesced (consecutive threadIdx.x read
//     consecutive floats), but the store out[x * height + y] jumps by `height` floats from one
//     lane to the next. Every lane hits its own 32-byte sector: 32 sectors per request instead
//     of 4, so the store moves eight times the useful bytes.
//   * transpose_tiled: a 32x32 tile is staged through shared memory so that both the global
//     load and the global store are coalesced. Reading the tile by column, tile[threadIdx.x][...],
//     makes all 32 lanes of a warp hit the same shared-memory bank: a 32-way bank conflict.
//   * transpose_tiled_padded: one extra column (TILE + 1) shifts each row by one bank, so the
//     column read becomes conflict-free. This is the version to use.
#include <cuda_runtime.h>

#define TILE 32
#define ROWS_PER_PASS 8   // each block is 32 x 8 threads and covers a 32 x 32 tile in 4 passes

__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out,
                                int width, int height)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        if (x < width && y + j < height) {
            out[x * height + (y + j)] = in[(y + j) * width + x];
        }
    }
}

__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out,
                                int width, int height)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        if (x < width && y + j < height) {
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
        }
    }
    __syncthreads();   // every tile element must be written before any is read back
    x = blockIdx.y * TILE + threadIdx.x;   // swap the block coordinates for the output
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        if (x < height && y + j < width) {
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
        }
    }
}

__global__ void transpose_tiled_padded(const float* __restrict__ in, float* __restrict__ out,
                                       int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];   // the padding column removes the bank conflicts
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        if (x < width && y + j < height) {
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
        }
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        if (x < height && y + j < width) {
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
        }
    }
}

// One launch site per kernel: kernelscope reads the block shape (32 x 8) from here.
void transpose_all(const float* in, float* out, int width, int height, cudaStream_t stream)
{
    dim3 block(TILE, ROWS_PER_PASS);
    dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    transpose_naive<<<grid, block, 0, stream>>>(in, out, width, height);
    transpose_tiled<<<grid, block, 0, stream>>>(in, out, width, height);
    transpose_tiled_padded<<<grid, block, 0, stream>>>(in, out, width, height);
}
