// Counts positive inputs per warp with a full-warp ballot executed by every lane.
extern "C" __global__ void ok_ballot_count(const float* in, int* counts)
{
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    unsigned positive = __ballot_sync(0xffffffffu, in[blockIdx.x * blockDim.x + threadIdx.x] > 0.0f);
    if (lane == 0)
        counts[blockIdx.x * (blockDim.x >> 5) + warp] = __popc(positive);
}
