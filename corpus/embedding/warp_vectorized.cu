// One warp per token: the index is read once and the row moves as 16-byte chunks when rows are
// 16-byte aligned (dim % 4 == 0).
extern "C" __global__ void embedding(const float *__restrict__ weight, const int *__restrict__ idx,
                                     float *__restrict__ out, int tokens, int dim)
{
    int lane = threadIdx.x % 32;
    int t = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (t >= tokens)
        return;
    const float *src = weight + (long)idx[t] * dim;
    float *dst = out + (long)t * dim;
    if (dim % 4 == 0) {
        for (int q = lane; q < dim / 4; q += 32)
            reinterpret_cast<float4 *>(dst)[q] = __ldg(&reinterpret_cast<const float4 *>(src)[q]);
    } else {
        for (int d = lane; d < dim; d += 32)
            dst[d] = src[d];
    }
}

/* kernelscope:plan
[[launch]]
kernel = "embedding"
grid = ["ceil_div(tokens, 8)"]
block = ["256"]
args = ["weight", "idx", "out", "tokens", "dim"]
*/
