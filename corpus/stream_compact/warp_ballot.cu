// One warp per row, 32 entries per step: __ballot_sync gathers the keep flags into a mask and a
// population count of the lanes below gives each kept entry its slot, with no shared memory.
extern "C" __global__ void stream_compact(const float *x, float *out, int *count, int rows, int cols)
{
    int lane = threadIdx.x % 32;
    int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (r >= rows)
        return;
    const float *in_row = x + (long)r * cols;
    float *out_row = out + (long)r * cols;
    unsigned below = (1u << lane) - 1;
    int kept = 0;
    for (int base = 0; base < cols; base += 32) {
        int c = base + lane;
        float v = c < cols ? in_row[c] : 0.0f;
        unsigned mask = __ballot_sync(0xffffffffu, v > 0);
        if (v > 0)
            out_row[kept + __popc(mask & below)] = v;
        kept += __popc(mask);
    }
    for (int c = kept + lane; c < cols; c += 32)
        out_row[c] = 0.0f;
    if (lane == 0)
        count[r] = kept;
}

/* kernelscope:plan
[[launch]]
kernel = "stream_compact"
grid = ["ceil_div(rows, 8)"]
block = ["256"]
args = ["x", "out", "count", "rows", "cols"]
*/
