// A full-warp shuffle mask used where only half of the warp is active.
extern "C" __global__ void shuffle_full_mask_in_branch(const float* in, float* out)
{
    int lane = threadIdx.x & 31;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane < 16) {
        v += __shfl_xor_sync(0xffffffffu, v, 8);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
