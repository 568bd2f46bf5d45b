// A 32 x 32 block covers 32 columns: threadIdx.x picks the column (coalesced), the 32 rows of
// threads split the rows between them, and a shared-memory tile adds the 32 partial sums.
extern "C" __global__ void col_sum(const float *x, float *out, int rows, int cols)
{
    __shared__ float partial[32][33];
    int c = blockIdx.x * 32 + threadIdx.x;
    float acc = 0.0f;
    if (c < cols)
        for (int r = threadIdx.y; r < rows; r += 32)
            acc += x[(long)r * cols + c];
    partial[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y == 0 && c < cols) {
        float total = 0.0f;
        for (int k = 0; k < 32; k++)
            total += partial[k][threadIdx.x];
        out[c] = total;
    }
}

/* kernelscope:plan
[[launch]]
kernel = "col_sum"
grid = ["ceil_div(cols, 32)"]
block = ["32", "32"]
args = ["x", "out", "rows", "cols"]
*/
