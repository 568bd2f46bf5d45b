// reduction.cu: summing an array, from a textbook tree in shared memory to warp shuffles.
//
// Try:   kernelscope analyze examples/reduction.cu
//
// What to look for in the report:
//   * reduce_interleaved: `if (t % (2 * s) == 0)` depends on the lane, so the branch diverges
//     inside every warp and most lanes sit idle while the few active ones work.
//   * reduce_sequential: halving the active range (t < s) keeps whole warps either busy or idle
//     and reads shared memory with unit stride: no bank conflicts, and no divergent branch in
//     the loop (the report judges the loop's branch on its first pass, s = 128; the last five
//     passes, s < 32, do split the one warp still working).
//   * reduce_shuffle: each warp sums its 32 values in registers with __shfl_down_sync; shared
//     memory only carries one value per warp, and there is a single __syncthreads().
// Every version ends with one atomicAdd per block into *sum, which the caller zeroes first.
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void reduce_interleaved(const float* __restrict__ in, float* sum, int n)
{
    __shared__ float partial[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    partial[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int s = 1; s < BLOCK; s *= 2) {
        if (t % (2 * s) == 0) {
            partial[t] += partial[t + s];
        }
        __syncthreads();   // outside the if: every thread of the block must reach it
    }
    if (t == 0) atomicAdd(sum, partial[0]);
}

__global__ void reduce_sequential(const float* __restrict__ in, float* sum, int n)
{
    __shared__ float partial[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    partial[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (t < s) {
            partial[t] += partial[t + s];
        }
        __syncthreads();
    }
    if (t == 0) atomicAdd(sum, partial[0]);
}

__device__ __forceinline__ float warp_sum(float v)
{
    // After five steps lane 0 holds the sum of all 32 lanes.
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    return v;
}

__global__ void reduce_shuffle(const float* __restrict__ in, float* sum, int n)
{
    __shared__ float warp_totals[BLOCK / 32];
    int t = threadIdx.x;
    float v = 0.0f;
    // Grid-stride loop: any grid size covers any n, and each thread adds several elements.
    for (int i = blockIdx.x * BLOCK + t; i < n; i += gridDim.x * BLOCK) {
        v += in[i];
    }
    v = warp_sum(v);
    if (t % 32 == 0) warp_totals[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = t < BLOCK / 32 ? warp_totals[t] : 0.0f;
        v = warp_sum(v);
        if (t == 0) atomicAdd(sum, v);
    }
}

void reduce_all(const float* in, float* sum, int n, cudaStream_t stream)
{
    int blocks = (n + BLOCK - 1) / BLOCK;
    reduce_interleaved<<<blocks, BLOCK, 0, stream>>>(in, sum, n);
    reduce_sequential<<<blocks, BLOCK, 0, stream>>>(in, sum, n);
    reduce_shuffle<<<blocks < 1024 ? blocks : 1024, BLOCK, 0, stream>>>(in, sum, n);
}
