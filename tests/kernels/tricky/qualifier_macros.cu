// Qualifier macros defined in a header that is not shown: HOST_DEVICE,
// FORCE_INLINE, RESTRICT, DEVICE_CONST. They must be tolerated as qualifiers.
#include "portability.h"

HOST_DEVICE FORCE_INLINE float squared(float x)
{
    return x * x;
}

__global__ void squared_norm(const float* RESTRICT x, float* RESTRICT out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = squared(x[i]);
}

__global__ void LAUNCH_BOUNDS_DEFAULT scaled_copy(const float* RESTRICT x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.5f * x[i];
}
