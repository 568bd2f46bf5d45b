// One thread scans a whole row serially; lanes of a warp work on 32 rows far apart in memory.
extern "C" __global__ void row_scan(const int *x, int *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    int acc = 0;
    for (int c = 0; c < cols; c++) {
        acc += x[(long)r * cols + c];
        out[(long)r * cols + c] = acc;
    }
}

/* kernelscope:plan
[[launch]]
kernel = "row_scan"
grid = ["ceil_div(rows, 128)"]
block = ["128"]
args = ["x", "out", "rows", "cols"]
*/
