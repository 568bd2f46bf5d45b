// A full-warp ballot mask used where lanes 20..31 are inactive.
extern "C" __global__ void ballot_full_mask_in_branch(const float* in, unsigned* out)
{
    int lane = threadIdx.x & 31;
    unsigned votes = 0;
    if (lane < 20)
        votes = __ballot_sync(0xffffffffu, in[threadIdx.x] > 0.0f);
    out[threadIdx.x] = votes;
}
