// One thread per system running the Thomas algorithm straight on the row-major arrays: the lanes
// of a warp read rows n floats apart, so every load is its own sector. The modified right-hand
// side is kept in x and the modified upper diagonal in a per-thread scratch array (n <= 256).
extern "C" __global__ void tridiagonal(const float *lower, const float *diag, const float *upper, const float *rhs,
                                       float *x, int batch, int n)
{
    float c[256];
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= batch)
        return;
    long base = (long)s * n;
    c[0] = upper[base] / diag[base];
    x[base] = rhs[base] / diag[base];
    for (int i = 1; i < n; i++) {
        float m = diag[base + i] - lower[base + i] * c[i - 1];
        c[i] = upper[base + i] / m;
        x[base + i] = (rhs[base + i] - lower[base + i] * x[base + i - 1]) / m;
    }
    for (int i = n - 2; i >= 0; i--)
        x[base + i] -= c[i] * x[base + i + 1];
}

/* kernelscope:plan
[[launch]]
kernel = "tridiagonal"
grid = ["ceil_div(batch, 128)"]
block = ["128"]
args = ["lower", "diag", "upper", "rhs", "x", "batch", "n"]
*/
