// Eight lanes per row (four rows per warp) keep more lanes busy on short rows; the randomly
// indexed vector is read through the read-only data cache.
extern "C" __global__ void spmv_ell(const float *__restrict__ vals, const int *__restrict__ col,
                                   const float *__restrict__ x, float *__restrict__ y, int rows, int nnz)
{
    int sub = threadIdx.x % 8;
    int r = blockIdx.x * (blockDim.x / 8) + threadIdx.x / 8;
    float acc = 0.0f;
    if (r < rows)
        for (int k = sub; k < nnz; k += 8)
            acc += vals[(long)r * nnz + k] * __ldg(&x[col[(long)r * nnz + k]]);
    for (int offset = 4; offset > 0; offset /= 2)
        acc += __shfl_xor_sync(0xffffffffu, acc, offset);
    if (r < rows && sub == 0)
        y[r] = acc;
}

/* kernelscope:plan
[[launch]]
kernel = "spmv_ell"
grid = ["ceil_div(rows, 32)"]
block = ["256"]
args = ["vals", "col", "x", "y", "rows", "nnz"]
*/
