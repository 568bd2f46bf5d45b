/* kernelscope:plan
# Two passes. The one-kernel versions give each block whole columns, so 4096 columns make 128 blocks
# for 132 SMs; here the rows are cut into chunks of 64 as well, every block sums a 64-row strip of
# 256 columns into scratch, and a second kernel adds each column's chunk totals.
[[scalars]]
name = "chunks"
value = "ceil_div(rows, 64)"

[[scratch]]
name = "partial"
dtype = "float32"
zero = false                          # fully written by the first launch
shape = ["chunks", "cols"]

[[launch]]
kernel = "col_sum_strips"
grid = ["ceil_div(cols, 256)", "chunks"]
block = ["256"]
args = ["x", "partial", "rows", "cols"]

[[launch]]
kernel = "col_sum_finish"
grid = ["ceil_div(cols, 256)"]
block = ["256"]
args = ["partial", "out", "cols", "chunks"]
*/
#define STRIP 64

extern "C" __global__ void col_sum_strips(const float *__restrict__ x, float *__restrict__ partial, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int first = blockIdx.y * STRIP;
    int last = min(first + STRIP, rows);
    if (c >= cols)
        return;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;   // four chains keep four loads in flight
    int r = first;
    for (; r + 4 <= last; r += 4) {
        a0 += __ldg(&x[(long)r * cols + c]);
        a1 += __ldg(&x[(long)(r + 1) * cols + c]);
        a2 += __ldg(&x[(long)(r + 2) * cols + c]);
        a3 += __ldg(&x[(long)(r + 3) * cols + c]);
    }
    for (; r < last; r++)
        a0 += x[(long)r * cols + c];
    partial[(long)blockIdx.y * cols + c] = (a0 + a1) + (a2 + a3);
}

extern "C" __global__ void col_sum_finish(const float *__restrict__ partial, float *__restrict__ out, int cols, int chunks)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    float total = 0.0f;
    for (int k = 0; k < chunks; k++)
        total += partial[(long)k * cols + c];
    out[c] = total;
}
