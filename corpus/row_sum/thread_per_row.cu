// One thread sums a whole row: the lanes of a warp read 32 different rows, so every load of the
// warp touches 32 separate cache lines.
extern "C" __global__ void row_sum(const float *x, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float acc = 0.0f;
    for (int c = 0; c < cols; c++)
        acc += x[(long)r * cols + c];
    out[r] = acc;
}

/* kernelscope:plan
[[launch]]
kernel = "row_sum"
grid = ["ceil_div(rows, 256)"]
block = ["256"]
args = ["x", "out", "rows", "cols"]
*/
