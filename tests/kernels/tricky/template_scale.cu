// A templated element-wise kernel: one explicit instantiation and one
// instantiation that only a host launch site creates.
#include <cuda_runtime.h>

template <typename T, int BLOCK>
__global__ void scale(T* x, T alpha, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) {
        x[i] = alpha * x[i];
    }
}

template __global__ void scale<float, 256>(float*, float, int);

void scale_doubles(double* x, double alpha, int n, cudaStream_t stream)
{
    scale<double, 128><<<(n + 127) / 128, 128, 0, stream>>>(x, alpha, n);
}
