// Angle brackets everywhere: nested template arguments before <<<, shifts,
// comparisons, and a dynamic shared-memory size written with sizeof.
#include <cuda_runtime.h>

template <int N> struct Pow2 { static constexpr int value = 1 << N; };

template <int BLOCK>
__global__ void block_reduce(const float* in, float* out, int n)
{
    extern __shared__ float sdata[];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    sdata[t] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (int s = BLOCK >> 1; s > 0; s >>= 1) {
        if (t < s) sdata[t] += sdata[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = sdata[0];
}

template <typename T, int SHIFT>
__global__ void shift_scale(T* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (i >> SHIFT) < (n >> SHIFT)) x[i] = x[i] * T(1 << SHIFT);
}

void launch(const float* in, float* out, float* tmp, int n)
{
    block_reduce<256><<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(in, tmp, n);
    shift_scale<float, Pow2<2>::value><<<(n + 63) >> 6, 64>>>(out, n);
}
