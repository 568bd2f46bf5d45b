// A block of 32 threads stages 32 whole systems in shared memory with coalesced loads (consecutive
// threads read consecutive floats), each thread then runs the Thomas algorithm on its own system
// there, and the solutions go back with coalesced stores. Rows are padded to n + 1 floats so that
// the 32 threads hit 32 different banks.
extern "C" __global__ void tridiagonal(const float *lower, const float *diag, const float *upper, const float *rhs,
                                       float *x, int batch, int n)
{
    extern __shared__ float smem[];
    int pitch = n + 1;
    float *a = smem, *b = a + 32 * pitch, *c = b + 32 * pitch, *d = c + 32 * pitch;
    long first = (long)blockIdx.x * 32 * n;
    int systems = min(32, batch - blockIdx.x * 32);
    for (int e = threadIdx.x; e < systems * n; e += 32) {
        int s = e / n, i = e % n;
        a[s * pitch + i] = lower[first + e];
        b[s * pitch + i] = diag[first + e];
        c[s * pitch + i] = upper[first + e];
        d[s * pitch + i] = rhs[first + e];
    }
    __syncwarp();
    if (threadIdx.x < systems) {
        float *sa = a + threadIdx.x * pitch, *sb = b + threadIdx.x * pitch;
        float *sc = c + threadIdx.x * pitch, *sd = d + threadIdx.x * pitch;
        sc[0] /= sb[0];
        sd[0] /= sb[0];
        for (int i = 1; i < n; i++) {
            float m = sb[i] - sa[i] * sc[i - 1];
            sc[i] /= m;
            sd[i] = (sd[i] - sa[i] * sd[i - 1]) / m;
        }
        for (int i = n - 2; i >= 0; i--)
            sd[i] -= sc[i] * sd[i + 1];
    }
    __syncwarp();
    for (int e = threadIdx.x; e < systems * n; e += 32)
        x[first + e] = d[(e / n) * pitch + e % n];
}

/* kernelscope:plan
[[launch]]
kernel = "tridiagonal"
grid = ["ceil_div(batch, 32)"]
block = ["32"]
dynamic_smem = "4 * 4 * 32 * (n + 1)"
args = ["lower", "diag", "upper", "rhs", "x", "batch", "n"]
*/
