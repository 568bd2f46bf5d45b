// All four warps store into the same 32 slots.
extern "C" __global__ void race_waw_lanes(const float* in, float* out)
{
    __shared__ float slot[32];
    int t = threadIdx.x;
    slot[t % 32] = in[t];
    __syncthreads();
    out[t] = slot[t % 32];
}
