// Parallel cyclic reduction: one block per system, one thread per equation. Each step every
// equation eliminates its neighbours at distance `stride` (which doubles), holding its own four
// coefficients in registers and publishing them through shared memory; after about log2(n) steps
// each equation stands alone. Missing neighbours act as the identity equation.
extern "C" __global__ void tridiagonal(const float *lower, const float *diag, const float *upper, const float *rhs,
                                       float *x, int batch, int n)
{
    extern __shared__ float smem[];
    float *sa = smem, *sb = sa + n, *sc = sb + n, *sd = sc + n;
    int i = threadIdx.x;
    long at = (long)blockIdx.x * n + i;
    float a = i > 0 ? lower[at] : 0.0f, b = diag[at], c = i < n - 1 ? upper[at] : 0.0f, d = rhs[at];
    for (int stride = 1; stride < n; stride *= 2) {
        sa[i] = a;
        sb[i] = b;
        sc[i] = c;
        sd[i] = d;
        __syncthreads();
        float k1 = 0.0f, k2 = 0.0f, a_new = 0.0f, c_new = 0.0f;
        float b_new = b, d_new = d;
        if (i - stride >= 0) {
            k1 = a / sb[i - stride];
            a_new = -sa[i - stride] * k1;
            b_new -= sc[i - stride] * k1;
            d_new -= sd[i - stride] * k1;
        }
        if (i + stride < n) {
            k2 = c / sb[i + stride];
            c_new = -sc[i + stride] * k2;
            b_new -= sa[i + stride] * k2;
            d_new -= sd[i + stride] * k2;
        }
        __syncthreads();
        a = a_new;
        b = b_new;
        c = c_new;
        d = d_new;
    }
    x[at] = d / b;
}

/* kernelscope:plan
[[launch]]
kernel = "tridiagonal"
grid = ["batch"]
block = ["n"]
dynamic_smem = "4 * 4 * n"
args = ["lower", "diag", "upper", "rhs", "x", "batch", "n"]
*/
