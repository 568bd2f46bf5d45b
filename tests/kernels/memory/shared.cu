// Shared-memory bank behaviour. Each kernel stages in[] through shared memory and writes out[]
// coalesced; the shared store and the shared load each use one pattern, named by the kernel.
// Banks are 4 bytes wide and there are 32 of them.

// 32x32 tile, 32x32 block: row-wise stores are conflict-free, column-wise loads hit one bank 32x.
extern "C" __global__ void smem_tile32_column_read(const float* in, float* out) {
    __shared__ float tile[32][32];
    int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = in[i];
    __syncthreads();
    out[i] = tile[threadIdx.x][threadIdx.y];
}

// The same with a padded row of 33 floats: column-wise loads are conflict-free.
extern "C" __global__ void smem_tile33_column_read(const float* in, float* out) {
    __shared__ float tile[32][33];
    int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = in[i];
    __syncthreads();
    out[i] = tile[threadIdx.x][threadIdx.y];
}

// 16x17 tile with a 16x16 block: a warp spans two tile rows 17 words apart, so in both the row
// store and the column load exactly one bank is hit twice.
extern "C" __global__ void smem_tile16x17_block16x16(const float* in, float* out) {
    __shared__ float tile[16][17];
    int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = in[i];
    __syncthreads();
    out[i] = tile[threadIdx.x][threadIdx.y];
}

// 8-byte elements, consecutive per lane (256 bytes per warp request).
extern "C" __global__ void smem_f64_consecutive(const double* in, double* out) {
    __shared__ double s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[blockDim.x - 1 - threadIdx.x];
}

// 16-byte elements, consecutive per lane (512 bytes per warp request).
extern "C" __global__ void smem_float4_consecutive(const float4* in, float4* out) {
    __shared__ float4 s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[blockDim.x - 1 - threadIdx.x];
}

// Every lane reads the same word.
extern "C" __global__ void smem_broadcast_read(const float* in, float* out) {
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[0] * (float)threadIdx.x;
}

// Loads two words apart: lanes l and l+16 share a bank.
extern "C" __global__ void smem_stride2_read(const float* in, float* out) {
    __shared__ float s[512];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = in[i];
    s[threadIdx.x + 256] = -in[i];
    __syncthreads();
    out[i] = s[2 * threadIdx.x];
}

// Loads four words apart: four lanes per bank.
extern "C" __global__ void smem_stride4_read(const float* in, float* out) {
    __shared__ float s[1024];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 4; ++k) s[threadIdx.x + 256 * k] = in[i] + (float)k;
    __syncthreads();
    out[i] = s[4 * threadIdx.x];
}

// Stores two words apart, then reads the same words back.
extern "C" __global__ void smem_stride2_write(const float* in, float* out) {
    __shared__ float s[512];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[2 * threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[2 * (blockDim.x - 1 - threadIdx.x)];
}

// Dynamically sized shared array (blockDim.x floats), consecutive per lane.
extern "C" __global__ void smem_dynamic_consecutive(const float* in, float* out) {
    extern __shared__ float s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[blockDim.x - 1 - threadIdx.x];
}

// Dynamically sized shared array (32 * blockDim.x floats), 32 words apart: one bank for the warp.
extern "C" __global__ void smem_dynamic_stride32(const float* in, float* out) {
    extern __shared__ float s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[32 * threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[32 * threadIdx.x] + 1.0f;
}

// Block sum with sequential addressing (256 threads): conflict-free, 255 additions per block.
extern "C" __global__ void smem_reduce_sequential(const float* in, float* out) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

// Block sum with interleaved addressing: the active lanes' words are 2, 4, 8... apart.
extern "C" __global__ void smem_reduce_interleaved(const float* in, float* out) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int step = 1; step < blockDim.x; step *= 2) {
        int k = 2 * step * t;
        if (k < blockDim.x) s[k] += s[k + step];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
