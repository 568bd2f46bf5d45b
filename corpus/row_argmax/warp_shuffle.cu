// One warp per row: coalesced scan, then the (value, index) pairs meet through register shuffles.
#define NEG_INF __int_as_float(0xff800000)   // -infinity: NVRTC has no <math.h> INFINITY

extern "C" __global__ void row_argmax(const float *x, int *out, int rows, int cols)
{
    int lane = threadIdx.x % 32;
    int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (r >= rows)
        return;
    const float *row = x + (long)r * cols;
    float best_value = NEG_INF;
    int best = cols;
    for (int c = lane; c < cols; c += 32) {
        float v = row[c];
        if (v > best_value) {
            best_value = v;
            best = c;
        }
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        float v = __shfl_xor_sync(0xffffffffu, best_value, offset);
        int i = __shfl_xor_sync(0xffffffffu, best, offset);
        if (v > best_value || (v == best_value && i < best)) {
            best_value = v;
            best = i;
        }
    }
    if (lane == 0)
        out[r] = best;
}

/* kernelscope:plan
[[launch]]
kernel = "row_argmax"
grid = ["ceil_div(rows, 8)"]
block = ["256"]
args = ["x", "out", "rows", "cols"]
*/
