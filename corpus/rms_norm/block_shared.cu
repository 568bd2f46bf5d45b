// One block per row: a coalesced strided pass, a shared-memory tree for the sum of squares, then
// a coalesced output pass.
extern "C" __global__ void rms_norm(const float *x, const float *weight, float *out, int rows, int cols)
{
    __shared__ float scratch[256];
    const float *row = x + (long)blockIdx.x * cols;
    float sq = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        sq += row[c] * row[c];
    scratch[threadIdx.x] = sq;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            scratch[threadIdx.x] += scratch[threadIdx.x + half];
        __syncthreads();
    }
    float scale = rsqrtf(scratch[0] / cols + 1e-6f);
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        out[(long)blockIdx.x * cols + c] = row[c] * scale * weight[c];
}

/* kernelscope:plan
[[launch]]
kernel = "rms_norm"
grid = ["rows"]
block = ["256"]
args = ["x", "weight", "out", "rows", "cols"]
*/
