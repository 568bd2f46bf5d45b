// One thread per row: with the row-major ELL layout the lanes of a warp read values nnz * 4 bytes
// apart, so value and column loads are uncoalesced.
extern "C" __global__ void spmv_ell(const float *vals, const int *col, const float *x, float *y, int rows, int nnz)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float acc = 0.0f;
    for (int k = 0; k < nnz; k++)
        acc += vals[(long)r * nnz + k] * x[col[(long)r * nnz + k]];
    y[r] = acc;
}

/* kernelscope:plan
[[launch]]
kernel = "spmv_ell"
grid = ["ceil_div(rows, 256)"]
block = ["256"]
args = ["vals", "col", "x", "y", "rows", "nnz"]
*/
