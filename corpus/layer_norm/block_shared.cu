// One block per row: coalesced strided passes, the mean and the variance each summed across the
// block by a tree reduction in shared memory.
__device__ float block_sum(float v, float *scratch)
{
    scratch[threadIdx.x] = v;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            scratch[threadIdx.x] += scratch[threadIdx.x + half];
        __syncthreads();
    }
    float total = scratch[0];
    __syncthreads();
    return total;
}

extern "C" __global__ void layer_norm(const float *x, const float *weight, const float *bias, float *out,
                                      int rows, int cols)
{
    __shared__ float scratch[256];
    const float *row = x + (long)blockIdx.x * cols;
    float *dst = out + (long)blockIdx.x * cols;
    float sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        sum += row[c];
    float mean = block_sum(sum, scratch) / cols;
    float sq = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        sq += (row[c] - mean) * (row[c] - mean);
    float inv = rsqrtf(block_sum(sq, scratch) / cols + 1e-5f);
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        dst[c] = (row[c] - mean) * inv * weight[c] + bias[c];
}

/* kernelscope:plan
[[launch]]
kernel = "layer_norm"
grid = ["rows"]
block = ["256"]
args = ["x", "weight", "bias", "out", "rows", "cols"]
*/
