// One thread per column walking down the rows: each warp-wide load is 128 contiguous bytes,
// but there are only as many threads as columns.
extern "C" __global__ void col_sum(const float *x, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    float acc = 0.0f;
    for (int r = 0; r < rows; r++)
        acc += x[(long)r * cols + c];
    out[c] = acc;
}

/* kernelscope:plan
[[launch]]
kernel = "col_sum"
grid = ["ceil_div(cols, 256)"]
block = ["256"]
args = ["x", "out", "rows", "cols"]
*/
