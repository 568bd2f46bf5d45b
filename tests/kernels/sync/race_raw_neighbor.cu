// Reads the right neighbour's shared slot right after storing its own, with no barrier between.
extern "C" __global__ void race_raw_neighbor(const float* in, float* out)
{
    __shared__ float tile[128];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * blockDim.x + t];
    float right = tile[(t + 1) % 128];
    out[blockIdx.x * blockDim.x + t] = right;
}
