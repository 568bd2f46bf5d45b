// Only the first two warps of the block reach the barrier.
extern "C" __global__ void divergent_barrier_half_block(const float* in, float* out)
{
    __shared__ float buf[128];
    int t = threadIdx.x;
    buf[t] = in[t];
    if (t < 64) {
        __syncthreads();
        out[t] = buf[63 - t];
    }
}
