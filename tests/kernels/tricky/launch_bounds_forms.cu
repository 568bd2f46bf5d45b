// __launch_bounds__ with one, two and three arguments (the third, the
// maximum number of thread blocks per cluster, exists since CUDA 12 / sm_90),
// with macro and constexpr-expression arguments.
#define MAX_THREADS 256
#define MIN_BLOCKS 4

__global__ void __launch_bounds__(512) one_arg(float* a)
{
    a[threadIdx.x] = 0.0f;
}

__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS) two_args(float* a)
{
    a[blockIdx.x * MAX_THREADS + threadIdx.x] *= 2.0f;
}

__global__ void __launch_bounds__(128, 2, 8) three_args(float* a, int n)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i < n) a[i] += 1.0f;
}

__global__ void __launch_bounds__(2 * 32 * 4) expression_arg(float* a)
{
    a[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
