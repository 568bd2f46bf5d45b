// One warp per row and a single read pass: each lane keeps a running maximum and a sum rescaled
// whenever the maximum grows; the (max, sum) pairs are merged through shuffles.
#define NEG_INF __int_as_float(0xff800000)   // -infinity: NVRTC has no <math.h> INFINITY

extern "C" __global__ void logsumexp(const float *x, float *out, int rows, int cols)
{
    int lane = threadIdx.x % 32;
    int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (r >= rows)
        return;
    const float *row = x + (long)r * cols;
    float peak = NEG_INF, sum = 0.0f;
    for (int c = lane; c < cols; c += 32) {
        float v = row[c];
        if (v > peak) {
            sum = sum * expf(peak - v) + 1.0f;
            peak = v;
        } else {
            sum += expf(v - peak);
        }
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        float other_peak = __shfl_xor_sync(0xffffffffu, peak, offset);
        float other_sum = __shfl_xor_sync(0xffffffffu, sum, offset);
        float merged = fmaxf(peak, other_peak);
        sum = (sum == 0.0f ? 0.0f : sum * expf(peak - merged)) + (other_sum == 0.0f ? 0.0f : other_sum * expf(other_peak - merged));
        peak = merged;
    }
    if (lane == 0)
        out[r] = peak + logf(sum);
}

/* kernelscope:plan
[[launch]]
kernel = "logsumexp"
grid = ["ceil_div(rows, 8)"]
block = ["256"]
args = ["x", "out", "rows", "cols"]
*/
