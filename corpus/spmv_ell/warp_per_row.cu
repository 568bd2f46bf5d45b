// One warp per row: the lanes read a row's values and columns contiguously, and shuffles add up
// the products. Rows shorter than 32 leave lanes idle.
extern "C" __global__ void spmv_ell(const float *vals, const int *col, const float *x, float *y, int rows, int nnz)
{
    int lane = threadIdx.x % 32;
    int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (r >= rows)
        return;
    float acc = 0.0f;
    for (int k = lane; k < nnz; k += 32)
        acc += vals[(long)r * nnz + k] * x[col[(long)r * nnz + k]];
    for (int offset = 16; offset > 0; offset /= 2)
        acc += __shfl_xor_sync(0xffffffffu, acc, offset);
    if (lane == 0)
        y[r] = acc;
}

/* kernelscope:plan
[[launch]]
kernel = "spmv_ell"
grid = ["ceil_div(rows, 8)"]
block = ["256"]
args = ["vals", "col", "x", "y", "rows", "nnz"]
*/
