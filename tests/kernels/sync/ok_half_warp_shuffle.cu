// Shuffles inside a half-warp branch with a mask naming exactly the lanes that take it.
extern "C" __global__ void ok_half_warp_shuffle(const float* in, float* out)
{
    int lane = threadIdx.x & 31;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane < 16) {
        v += __shfl_xor_sync(0x0000ffffu, v, 8);
        v += __shfl_xor_sync(0x0000ffffu, v, 4);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
