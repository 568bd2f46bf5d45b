// A CUB block-wide reduction: a class template instantiated inside the kernel, a nested
// dependent type for its shared storage, and a template kernel launched with a template
// argument that also sizes the block.
#include <cub/block/block_reduce.cuh>

template <int BLOCK_THREADS>
__global__ void cub_sum(const float* __restrict__ in, float* __restrict__ out, int n)
{
    using BlockReduce = cub::BlockReduce<float, BLOCK_THREADS>;
    __shared__ typename BlockReduce::TempStorage storage;
    int i = blockIdx.x * BLOCK_THREADS + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    float total = BlockReduce(storage).Sum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}

void launch(const float* in, float* out, int n)
{
    constexpr int kThreads = 128;
    cub_sum<kThreads><<<(n + kThreads - 1) / kThreads, kThreads>>>(in, out, n);
}
