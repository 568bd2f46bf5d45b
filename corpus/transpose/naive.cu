// Reads are coalesced along a row of x, but the writes of a warp go down a column of out, one
// 32-byte sector per lane.
extern "C" __global__ void transpose(const float *x, float *out, int rows, int cols)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < rows && j < cols)
        out[(long)j * rows + i] = x[(long)i * cols + j];
}

/* kernelscope:plan
[[launch]]
kernel = "transpose"
grid = ["ceil_div(cols, 32)", "ceil_div(rows, 8)"]
block = ["32", "8"]
args = ["x", "out", "rows", "cols"]
*/
