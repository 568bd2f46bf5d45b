// One warp per row with 16-byte loads and stores when rows are 16-byte aligned (cols % 4 == 0);
// the sum of squares is combined with shuffles.
extern "C" __global__ void rms_norm(const float *__restrict__ x, const float *__restrict__ weight,
                                    float *__restrict__ out, int rows, int cols)
{
    int lane = threadIdx.x % 32;
    int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (r >= rows)
        return;
    const float *row = x + (long)r * cols;
    float *dst = out + (long)r * cols;
    bool aligned = cols % 4 == 0;
    float sq = 0.0f;
    if (aligned) {
        for (int q = lane; q < cols / 4; q += 32) {
            float4 v = reinterpret_cast<const float4 *>(row)[q];
            sq += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
        }
    } else {
        for (int c = lane; c < cols; c += 32)
            sq += row[c] * row[c];
    }
    for (int offset = 16; offset > 0; offset /= 2)
        sq += __shfl_xor_sync(0xffffffffu, sq, offset);
    float scale = rsqrtf(sq / cols + 1e-6f);
    if (aligned) {
        for (int q = lane; q < cols / 4; q += 32) {
            float4 v = reinterpret_cast<const float4 *>(row)[q];
            float4 w = __ldg(&reinterpret_cast<const float4 *>(weight)[q]);
            reinterpret_cast<float4 *>(dst)[q] = make_float4(v.x * scale * w.x, v.y * scale * w.y, v.z * scale * w.z, v.w * scale * w.w);
        }
    } else {
        for (int c = lane; c < cols; c += 32)
            dst[c] = row[c] * scale * weight[c];
    }
}

/* kernelscope:plan
[[launch]]
kernel = "rms_norm"
grid = ["ceil_div(rows, 8)"]
block = ["256"]
args = ["x", "weight", "out", "rows", "cols"]
*/
