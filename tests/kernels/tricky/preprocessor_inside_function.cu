// #if / #ifdef / #else inside function bodies, including the pattern that
// splits a statement between preprocessor branches.
#define USE_FAST_MATH 1

__global__ void activate(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
#if USE_FAST_MATH
    {
        y[i] = __expf(x[i]);
    }
#else
    {
        y[i] = expf(x[i]);
    }
#endif
}

__global__ void warp_total(const float* x, float* out)
{
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    v = __reduce_add_sync(0xffffffffu, (unsigned)v);
#else
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
#endif
#ifdef DEBUG_TOTALS
    printf("block %d total %f\n", blockIdx.x, v);
#endif
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, v);
}

__global__ void after_conditionals(float* a)
{
    a[threadIdx.x] = 0.0f;
}
