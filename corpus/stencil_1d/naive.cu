// Each thread computes a contiguous run of 32 outputs straight from global memory; the lanes of a
// warp are 128 bytes apart, so their loads never share a request.
#define RADIUS 4

extern "C" __global__ void stencil_1d(const float *x, const float *w, float *out, int n)
{
    const int chunk = 32;
    long start = ((long)blockIdx.x * blockDim.x + threadIdx.x) * chunk;
    for (long i = start; i < start + chunk && i < n; i++) {
        float acc = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; k++)
            if (i + k >= 0 && i + k < n)
                acc += w[k + RADIUS] * x[i + k];
        out[i] = acc;
    }
}

/* kernelscope:plan
[[launch]]
kernel = "stencil_1d"
grid = ["ceil_div(n, 256 * 32)"]
block = ["256"]
args = ["x", "w", "out", "n"]
*/
