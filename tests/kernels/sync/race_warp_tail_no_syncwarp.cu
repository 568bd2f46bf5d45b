// The last warp of a reduction exchanges partial sums through shared memory without __syncwarp.
extern "C" __global__ void race_warp_tail_no_syncwarp(const float* in, float* out)
{
    __shared__ float part[64];
    int t = threadIdx.x;
    part[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    if (t < 32) {
        part[t] += part[t + 32];
        part[t] += part[t + 16];
        part[t] += part[t + 8];
        part[t] += part[t + 4];
        part[t] += part[t + 2];
        part[t] += part[t + 1];
    }
    if (t == 0)
        out[blockIdx.x] = part[0];
}
