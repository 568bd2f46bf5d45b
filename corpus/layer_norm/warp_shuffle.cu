// One warp per row: the row is read coalesced, sums are combined with butterfly shuffles, and the
// two statistics need no shared memory or block barriers.
__device__ __forceinline__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

extern "C" __global__ void layer_norm(const float *x, const float *weight, const float *bias, float *out,
                                      int rows, int cols)
{
    int lane = threadIdx.x % 32;
    int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (r >= rows)
        return;
    const float *row = x + (long)r * cols;
    float *dst = out + (long)r * cols;
    float sum = 0.0f;
    for (int c = lane; c < cols; c += 32)
        sum += row[c];
    float mean = warp_sum(sum) / cols;
    float sq = 0.0f;
    for (int c = lane; c < cols; c += 32)
        sq += (row[c] - mean) * (row[c] - mean);
    float inv = rsqrtf(warp_sum(sq) / cols + 1e-5f);
    for (int c = lane; c < cols; c += 32)
        dst[c] = (row[c] - mean) * inv * weight[c] + bias[c];
}

/* kernelscope:plan
[[launch]]
kernel = "layer_norm"
grid = ["ceil_div(rows, 8)"]
block = ["256"]
args = ["x", "weight", "bias", "out", "rows", "cols"]
*/
