// Tree reduction with a barrier after every halving step; the loop bound only reads blockDim.
extern "C" __global__ void ok_tree_reduction(const float* in, float* out)
{
    __shared__ float part[128];
    int t = threadIdx.x;
    part[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = part[0];
}
