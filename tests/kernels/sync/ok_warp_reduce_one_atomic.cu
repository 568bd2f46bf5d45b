// Warp-shuffle reduction, then one atomic per warp from lane 0.
extern "C" __global__ void ok_warp_reduce_one_atomic(const float* in, float* total)
{
    int lane = threadIdx.x & 31;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int d = 16; d > 0; d >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, d);
    if (lane == 0)
        atomicAdd(total, v);
}
