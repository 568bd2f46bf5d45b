// Half-precision kernels. ncu counts thread instructions: a packed half2 instruction counts once
// although it performs two operations.
#include <cuda_fp16.h>

// y = a*x + y with the __hfma intrinsic: one half multiply-add.
extern "C" __global__ void flop_haxpy_intrinsic(const __half* x, __half* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __hfma(__float2half(a), x[i], y[i]);
}

// z = (x + y) * x with __hadd and __hmul: one half add and one half multiply.
extern "C" __global__ void flop_hadd_hmul_intrinsic(const __half* x, const __half* y, __half* z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = __hmul(__hadd(x[i], y[i]), x[i]);
}

// Degree-4 polynomial with __half operators, four multiply-adds written as p * v + c.
extern "C" __global__ void flop_horner4_half_operators(const __half* x, __half* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half v = x[i];
    __half p = __float2half(0.0625f);
    p = p * v + __float2half(0.125f);
    p = p * v + __float2half(0.25f);
    p = p * v + __float2half(0.5f);
    p = p * v + __float2half(1.0f);
    y[i] = p;
}

// Packed y2 = a2*x2 + y2 on half2: one HFMA2 per thread doing two multiply-adds.
extern "C" __global__ void flop_half2_fma(const __half2* x, __half2* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __hfma2(__float2half2_rn(a), x[i], y[i]);
}
