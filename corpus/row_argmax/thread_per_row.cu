// One thread scans a whole row; a warp's loads land in 32 different rows.
extern "C" __global__ void row_argmax(const float *x, int *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const float *row = x + (long)r * cols;
    int best = 0;
    float best_value = row[0];
    for (int c = 1; c < cols; c++)
        if (row[c] > best_value) {
            best_value = row[c];
            best = c;
        }
    out[r] = best;
}

/* kernelscope:plan
[[launch]]
kernel = "row_argmax"
grid = ["ceil_div(rows, 256)"]
block = ["256"]
args = ["x", "out", "rows", "cols"]
*/
