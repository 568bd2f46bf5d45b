// Last-warp reduction through shared memory, ordered by __syncwarp between reads and writes.
extern "C" __global__ void ok_syncwarp_tail(const float* in, float* out)
{
    __shared__ float part[64];
    int t = threadIdx.x;
    part[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    if (t < 32) {
        float v = part[t] + part[t + 32];
        part[t] = v;
        __syncwarp();
        for (int d = 16; d > 0; d >>= 1) {
            v += part[t + d];
            __syncwarp();
            part[t] = v;
            __syncwarp();
        }
    }
    if (t == 0)
        out[blockIdx.x] = part[0];
}
