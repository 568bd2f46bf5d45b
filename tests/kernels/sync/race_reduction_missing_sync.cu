// Tree reduction whose halving steps are not separated by barriers.
extern "C" __global__ void race_reduction_missing_sync(const float* in, float* out)
{
    __shared__ float part[128];
    int t = threadIdx.x;
    part[t] = in[blockIdx.x * 128 + t];
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
        if (t < s)
            part[t] += part[t + s];
    }
    if (t == 0)
        out[blockIdx.x] = part[0];
}
