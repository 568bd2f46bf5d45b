// The tile is padded to 33 columns (no bank conflicts) and a 32 x 8 block moves a 32 x 32 tile,
// four rows per thread, so each thread has four independent loads in flight.
extern "C" __global__ void transpose(const float *x, float *out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int j = blockIdx.x * 32 + threadIdx.x;
    for (int r = threadIdx.y; r < 32; r += 8) {
        int i = blockIdx.y * 32 + r;
        if (i < rows && j < cols)
            tile[r][threadIdx.x] = x[(long)i * cols + j];
    }
    __syncthreads();
    int oj = blockIdx.y * 32 + threadIdx.x;
    for (int r = threadIdx.y; r < 32; r += 8) {
        int oi = blockIdx.x * 32 + r;
        if (oi < cols && oj < rows)
            out[(long)oi * rows + oj] = tile[threadIdx.x][r];
    }
}

/* kernelscope:plan
[[launch]]
kernel = "transpose"
grid = ["ceil_div(cols, 32)", "ceil_div(rows, 32)"]
block = ["32", "8"]
args = ["x", "out", "rows", "cols"]
*/
