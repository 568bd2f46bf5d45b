// One thread per row: the lanes of a warp read 32 different rows of A at the same column.
extern "C" __global__ void matvec(const float *a, const float *x, float *y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float acc = 0.0f;
    for (int c = 0; c < cols; c++)
        acc += a[(long)r * cols + c] * x[c];
    y[r] = acc;
}

/* kernelscope:plan
[[launch]]
kernel = "matvec"
grid = ["ceil_div(rows, 256)"]
block = ["256"]
args = ["a", "x", "y", "rows", "cols"]
*/
