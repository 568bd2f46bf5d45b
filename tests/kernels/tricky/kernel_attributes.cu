// Less common kernel and parameter attributes: __cluster_dims__,
// __grid_constant__, __restrict__ everywhere, __noinline__ helpers,
// C++ attributes and default template arguments on a struct parameter.
#include <cuda_runtime.h>

struct Params {
    const float* in;
    float* out;
    int n;
    float alpha;
};

__device__ __noinline__ float slow_scale(float v, float a) { return v * a; }

__global__ void __cluster_dims__(2, 1, 1) clustered(const Params p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n) p.out[i] = slow_scale(p.in[i], p.alpha);
}

__global__ void with_grid_constant(const __grid_constant__ Params p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n) [[likely]] p.out[i] = p.in[i] + p.alpha;
}

__global__ void restrict_everything(const float* __restrict__ const a,
                                    float* __restrict__ const b,
                                    const int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = a[i];
}
