// Host launch sites supply block shapes: dim3 variables, dim3 temporaries,
// integer expressions, constexpr and macro constants, smem and stream args.
#include <cuda_runtime.h>
#define THREADS 512

__global__ void transpose(const float* in, float* out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[x * h + y] = in[y * w + x];
}

__global__ void axpy(float a, const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}

__global__ void stencil3d(const float* in, float* out, int nx, int ny)
{
    extern __shared__ float halo[];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    halo[(threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x] = in[(z * ny + y) * nx + x];
    __syncthreads();
    out[(z * ny + y) * nx + x] = halo[(threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x];
}

__global__ void fill(float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 0.0f;
}

__global__ void zero_tail(float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 0.0f;
}

void launch_all(float* a, float* b, int w, int h, int n, cudaStream_t stream)
{
    dim3 block(16, 16);
    dim3 grid((w + block.x - 1) / block.x, (h + 15) / 16);
    transpose<<<grid, block, 0, stream>>>(a, b, w, h);

    const int threads = 256;
    axpy<<<(n + threads - 1) / threads, threads>>>(2.0f, a, b, n);

    size_t smem_bytes = 8 * 8 * 4 * sizeof(float);
    stencil3d<<<dim3(w / 8, h / 8, 4), dim3(8, 8, 4), smem_bytes, stream>>>(a, b, w, h);

    constexpr int kBlock = 2 * 64;
    fill<<<(n + kBlock - 1) / kBlock, kBlock>>>(a, n);

    zero_tail<<<n / THREADS, THREADS, 0, stream>>>(b, n);
}
