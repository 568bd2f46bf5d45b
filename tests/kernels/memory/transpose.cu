// Matrix transpose of an n x n row-major matrix (n a multiple of 32), launched with 32x8 blocks
// over a grid of n/32 x n/32 tiles; each thread moves four elements, eight rows apart.

#define TILE 32
#define ROWS_PER_PASS 8

// Reads rows, writes columns: loads coalesced, stores n floats apart.
extern "C" __global__ void xpose_naive_write_columns(const float* in, float* out, int n) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        out[x * n + (y + j)] = in[(y + j) * n + x];
}

// Reads columns, writes rows: loads n floats apart, stores coalesced.
extern "C" __global__ void xpose_naive_read_columns(const float* in, float* out, int n) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        out[(y + j) * n + x] = in[x * n + (y + j)];
}

// Through a shared tile without padding: the column reads of the tile hit one bank 32 times.
extern "C" __global__ void xpose_tiled_unpadded(const float* in, float* out, int n) {
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The same with one column of padding: column reads spread over all 32 banks.
extern "C" __global__ void xpose_tiled_padded(const float* in, float* out, int n) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
