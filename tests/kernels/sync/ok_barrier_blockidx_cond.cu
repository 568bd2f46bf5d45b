// A barrier under a condition on blockIdx: divergent across blocks, uniform inside each.
extern "C" __global__ void ok_barrier_blockidx_cond(const float* in, float* out)
{
    __shared__ float buf[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    float v = in[i];
    if (blockIdx.x % 2 == 0) {
        buf[t] = v;
        __syncthreads();
        v = buf[blockDim.x - 1 - t];
    }
    out[i] = v;
}
