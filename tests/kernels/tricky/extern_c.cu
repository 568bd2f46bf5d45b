// extern "C" kernels: one declared with the specifier, three inside a
// linkage block (one of them a declaration only, defined further down).
extern "C" __global__ void c_fill(float* a, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = v;
}

extern "C" {

__global__ void c_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void c_scale(float* a, float s, int n);

}  // extern "C"

extern "C" __global__ void c_scale(float* a, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= s;
}
