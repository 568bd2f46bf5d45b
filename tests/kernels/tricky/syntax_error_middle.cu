// Three kernels; the middle one has a syntax error (an unbalanced
// parenthesis). The other two must be found and analysed regardless.
__global__ void before_error(float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 1.0f;
}

__global__ void broken(float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((i < n) a[i] = 2.0f;
    a[0] = 3.0f;
}

__global__ void after_error(float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 4.0f;
}
