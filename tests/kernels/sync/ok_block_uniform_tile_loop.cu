// Barriers in a block-stride loop whose trip count depends only on blockIdx and n.
extern "C" __global__ void ok_block_uniform_tile_loop(const float* in, float* out, int n)
{
    __shared__ float tile[128];
    int t = threadIdx.x;
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        tile[t] = base + t < n ? in[base + t] : 0.0f;
        __syncthreads();
        if (base + t < n)
            out[base + t] = tile[blockDim.x - 1 - t];
        __syncthreads();
    }
}
