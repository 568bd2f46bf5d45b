// Each thread normalises a contiguous run of 32 elements, recomputing the channel and the
// per-channel scale for every element; the lanes of a warp are 128 bytes apart.
extern "C" __global__ void batchnorm_infer(const float *x, const float *mean, const float *var, const float *weight,
                                           const float *bias, float *out, int n, int c, int hw)
{
    const int chunk = 32;
    long total = (long)n * c * hw;
    long start = ((long)blockIdx.x * blockDim.x + threadIdx.x) * chunk;
    for (long i = start; i < start + chunk && i < total; i++) {
        int ch = (i / hw) % c;
        out[i] = (x[i] - mean[ch]) / sqrtf(var[ch] + 1e-5f) * weight[ch] + bias[ch];
    }
}

/* kernelscope:plan
[[launch]]
kernel = "batchnorm_infer"
grid = ["ceil_div(n * c * h * w, 256 * 32)"]
block = ["256"]
args = ["x", "mean", "var", "weight", "bias", "out", "n", "c", "hw"]
*/
