// Templates with default arguments, non-type parameters in shared-array
// sizes and launch bounds, and explicit instantiations produced by a macro
// written without a trailing semicolon.
#include <cuda_fp16.h>

template <typename T, int TILE = 32>
__global__ void transpose_tiled(const T* __restrict__ in, T* __restrict__ out, int rows, int cols)
{
    __shared__ T tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

template <typename T, int VEC>
__global__ void __launch_bounds__(256) vec_copy(const T* in, T* out, int n)
{
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * VEC;
#pragma unroll
    for (int k = 0; k < VEC; ++k)
        if (base + k < n) out[base + k] = in[base + k];
}

#define INSTANTIATE_VEC_COPY(T) \
    template __global__ void vec_copy<T, 4>(const T*, T*, int);

INSTANTIATE_VEC_COPY(float)
INSTANTIATE_VEC_COPY(double)

template __global__ void transpose_tiled<float>(const float*, float*, int, int);
template __global__ void transpose_tiled<__half, 16>(const __half*, __half*, int, int);
