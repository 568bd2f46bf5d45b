// Static shared memory of several sizes.
#define TILE 32
__global__ void transpose_tile(const float* in, float* out, int width) {
    __shared__ float tile[TILE][TILE + 1];   // 4224 bytes
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
    out[y * width + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void big_static(const float* in, float* out) {
    __shared__ float buffer[10240];          // 40 KiB
    for (int i = threadIdx.x; i < 10240; i += blockDim.x) buffer[i] = in[blockIdx.x * 10240 + i];
    __syncthreads();
    float s = 0.0f;
    for (int i = threadIdx.x; i < 10240; i += blockDim.x) s += buffer[10239 - i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n / 16; ++t) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t * 16 + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * 16 + threadIdx.y) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 16; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

__global__ void odd_static(const char* in, char* out) {
    __shared__ char bytes[1000];             // not a multiple of the 128-byte allocation unit
    bytes[threadIdx.x % 1000] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = bytes[(threadIdx.x * 7) % 1000];
}
