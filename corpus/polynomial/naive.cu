// Each thread evaluates a contiguous run of 32 points, reading the coefficients from global
// memory for every point; the per-thread runs make every warp access uncoalesced.
#define DEGREE 16

extern "C" __global__ void polynomial(const float *x, const float *coeffs, float *y, int n)
{
    const int chunk = 32;
    long start = ((long)blockIdx.x * blockDim.x + threadIdx.x) * chunk;
    for (long i = start; i < start + chunk && i < n; i++) {
        float acc = 0.0f;
        for (int k = DEGREE; k >= 0; k--)
            acc = acc * x[i] + coeffs[k];
        y[i] = acc;
    }
}

/* kernelscope:plan
[[launch]]
kernel = "polynomial"
grid = ["ceil_div(n, 256 * 32)"]
block = ["256"]
args = ["x", "coeffs", "y", "n"]
*/
