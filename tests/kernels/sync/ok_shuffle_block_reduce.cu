// Two-level reduction: full-warp shuffles, warp sums through shared memory, then warp 0 shuffles again.
extern "C" __global__ void ok_shuffle_block_reduce(const float* in, float* out)
{
    __shared__ float warp_sums[32];
    int t = threadIdx.x;
    int lane = t & 31;
    int warp = t >> 5;
    float v = in[blockIdx.x * blockDim.x + t];
    for (int d = 16; d > 0; d >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, d);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (blockDim.x >> 5) ? warp_sums[lane] : 0.0f;
        for (int d = 16; d > 0; d >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, d);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}
