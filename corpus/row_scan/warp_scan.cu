// One warp per row, 32 columns per step: each lane loads one element (coalesced), a shuffle-up
// scan adds the lanes below it, and lane 31's total carries into the next step.
extern "C" __global__ void row_scan(const int *x, int *out, int rows, int cols)
{
    int lane = threadIdx.x % 32;
    int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (r >= rows)
        return;
    const int *in_row = x + (long)r * cols;
    int *out_row = out + (long)r * cols;
    int carry = 0;
    for (int base = 0; base < cols; base += 32) {
        int c = base + lane;
        int v = c < cols ? in_row[c] : 0;
        for (int offset = 1; offset < 32; offset *= 2) {
            int below = __shfl_up_sync(0xffffffffu, v, offset);
            if (lane >= offset)
                v += below;
        }
        v += carry;
        if (c < cols)
            out_row[c] = v;
        carry = __shfl_sync(0xffffffffu, v, 31);
    }
}

/* kernelscope:plan
[[launch]]
kernel = "row_scan"
grid = ["ceil_div(rows, 8)"]
block = ["256"]
args = ["x", "out", "rows", "cols"]
*/
