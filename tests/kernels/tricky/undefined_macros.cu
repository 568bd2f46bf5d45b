// Macros that come from headers this file does not show (here the header
// is missing on purpose). A front end cannot expand them; it must still
// find every kernel, and any syntax error it reports must sit on the lines
// that use the unknown macros.
#include "project_macros.h"

__global__ void uses_unknown_statement_macro(float* out, int n)
{
    DECLARE_SHARED_TILE(float, tile, 128)
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 1.0f;
}

__global__ void after_unknown_macro(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2.0f;
}

INSTANTIATE_FOR_ALL_TYPES(after_unknown_macro)

__global__ void last_kernel(float* a)
{
    a[threadIdx.x] = 3.0f;
}
