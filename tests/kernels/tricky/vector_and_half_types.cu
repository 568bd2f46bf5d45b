// Vector loads through reinterpret_cast, __ldg, half2 and bfloat16 math.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void copy_float4(const float* __restrict__ in, float* __restrict__ out, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = reinterpret_cast<const float4*>(in)[i];
        reinterpret_cast<float4*>(out)[i] = v;
    }
}

__global__ void half2_axpy(__half2 a, const __half2* x, __half2* y, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) y[i] = __hfma2(a, __ldg(&x[i]), y[i]);
}

__global__ void bf16_scale(__nv_bfloat16* x, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = __float2bfloat16(__bfloat162float(x[i]) * s);
}
