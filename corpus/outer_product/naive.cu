// threadIdx.x follows the outer loop (rows): a warp's 32 stores land in 32 different rows.
extern "C" __global__ void outer_product(const float *a, const float *b, float *out, int m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < m && j < n)
        out[(long)i * n + j] = a[i] * b[j];
}

/* kernelscope:plan
[[launch]]
kernel = "outer_product"
grid = ["ceil_div(m, 16)", "ceil_div(n, 16)"]
block = ["16", "16"]
args = ["a", "b", "out", "m", "n"]
*/
