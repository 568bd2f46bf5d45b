// A 32 x 32 tile goes through shared memory so that both the read and the write are coalesced;
// the column read of the unpadded tile makes 32-way bank conflicts.
extern "C" __global__ void transpose(const float *x, float *out, int rows, int cols)
{
    __shared__ float tile[32][32];
    int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 32 + threadIdx.y;
    if (i < rows && j < cols)
        tile[threadIdx.y][threadIdx.x] = x[(long)i * cols + j];
    __syncthreads();
    int oi = blockIdx.x * 32 + threadIdx.y, oj = blockIdx.y * 32 + threadIdx.x;
    if (oi < cols && oj < rows)
        out[(long)oi * rows + oj] = tile[threadIdx.x][threadIdx.y];
}

/* kernelscope:plan
[[launch]]
kernel = "transpose"
grid = ["ceil_div(cols, 32)", "ceil_div(rows, 32)"]
block = ["32", "32"]
args = ["x", "out", "rows", "cols"]
*/
