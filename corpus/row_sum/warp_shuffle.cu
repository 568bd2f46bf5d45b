// One warp per row: lanes read the row in coalesced 128-byte steps, four independent accumulators
// per lane, and a butterfly of register shuffles adds the lanes together without shared memory.
extern "C" __global__ void row_sum(const float *x, float *out, int rows, int cols)
{
    int lane = threadIdx.x % 32;
    int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (r >= rows)
        return;
    const float *row = x + (long)r * cols;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    int c = lane;
    for (; c + 96 < cols; c += 128) {
        a0 += row[c];
        a1 += row[c + 32];
        a2 += row[c + 64];
        a3 += row[c + 96];
    }
    for (; c < cols; c += 32)
        a0 += row[c];
    float acc = (a0 + a1) + (a2 + a3);
    for (int offset = 16; offset > 0; offset /= 2)
        acc += __shfl_xor_sync(0xffffffffu, acc, offset);
    if (lane == 0)
        out[r] = acc;
}

/* kernelscope:plan
[[launch]]
kernel = "row_sum"
grid = ["ceil_div(rows, 8)"]
block = ["256"]
args = ["x", "out", "rows", "cols"]
*/
