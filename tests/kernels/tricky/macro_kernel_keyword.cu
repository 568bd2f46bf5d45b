// Kernels declared through macros that hide __global__ and the return type.
#define KERNEL __global__ void
#define BOUNDED_KERNEL(name) __global__ void __launch_bounds__(128) name
#define GRID_STRIDE(i, n) \
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

KERNEL add_one(float* a, int n)
{
    GRID_STRIDE(i, n) {
        a[i] += 1.0f;
    }
}

BOUNDED_KERNEL(negate)(float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = -a[i];
}

static KERNEL fill(float* a, float value, int n)
{
    GRID_STRIDE(j, n) a[j] = value;
}
