// One warp per sample, the row read once with 16-byte loads (when classes % 4 == 0) and kept in
// registers between the max and sum passes (up to 1024 classes), merged through shuffles.
#define NEG_INF __int_as_float(0xff800000)   // -infinity: NVRTC has no <math.h> INFINITY

#define MAX_QUADS_PER_LANE 8

extern "C" __global__ void cross_entropy(const float *__restrict__ logits, const int *__restrict__ target,
                                         float *__restrict__ loss, int batch, int classes)
{
    int lane = threadIdx.x % 32;
    int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (r >= batch)
        return;
    const float *row = logits + (long)r * classes;
    float peak = NEG_INF, sum = 0.0f;
    if (classes % 4 == 0 && classes <= 128 * MAX_QUADS_PER_LANE) {
        float4 kept[MAX_QUADS_PER_LANE];
#pragma unroll
        for (int k = 0; k < MAX_QUADS_PER_LANE; k++) {
            int q = lane + 32 * k;
            kept[k] = q < classes / 4 ? reinterpret_cast<const float4 *>(row)[q]
                                      : make_float4(NEG_INF, NEG_INF, NEG_INF, NEG_INF);
            peak = fmaxf(peak, fmaxf(fmaxf(kept[k].x, kept[k].y), fmaxf(kept[k].z, kept[k].w)));
        }
        for (int offset = 16; offset > 0; offset /= 2)
            peak = fmaxf(peak, __shfl_xor_sync(0xffffffffu, peak, offset));
#pragma unroll
        for (int k = 0; k < MAX_QUADS_PER_LANE; k++)
            sum += expf(kept[k].x - peak) + expf(kept[k].y - peak) + expf(kept[k].z - peak) + expf(kept[k].w - peak);
    } else {
        for (int c = lane; c < classes; c += 32)
            peak = fmaxf(peak, row[c]);
        for (int offset = 16; offset > 0; offset /= 2)
            peak = fmaxf(peak, __shfl_xor_sync(0xffffffffu, peak, offset));
        for (int c = lane; c < classes; c += 32)
            sum += expf(row[c] - peak);
    }
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (lane == 0)
        loss[r] = peak + logf(sum) - row[target[r]];
}

/* kernelscope:plan
[[launch]]
kernel = "cross_entropy"
grid = ["ceil_div(batch, 8)"]
block = ["256"]
args = ["logits", "target", "loss", "batch", "classes"]
*/
