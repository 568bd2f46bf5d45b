// Windows line endings and a byte order mark.
#include <cuda_runtime.h>

__global__ void crlf_kernel(float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 2.0f * a[i];
}

__global__ void crlf_second(float* a)
{
    a[threadIdx.x] = 0.0f;
}
