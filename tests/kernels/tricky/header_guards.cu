#pragma once
#ifndef KERNELS_HEADER_GUARD_CUH
#define KERNELS_HEADER_GUARD_CUH
// A header-style file: pragma once, include guard, inline device constants
// and __constant__ memory read by a kernel.

__constant__ float kCoefficients[16];
static constexpr int kTaps = 16;

__global__ void fir_filter(const float* __restrict__ in, float* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + kTaps > n) return;
    float acc = 0.0f;
    for (int k = 0; k < kTaps; ++k)
        acc += kCoefficients[k] * in[i + k];
    out[i] = acc;
}

#endif  // KERNELS_HEADER_GUARD_CUH
