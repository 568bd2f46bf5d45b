// One block per row: threads stride across the row (coalesced), then a tree reduction in shared
// memory combines the 256 partial sums.
extern "C" __global__ void row_sum(const float *x, float *out, int rows, int cols)
{
    __shared__ float partial[256];
    const float *row = x + (long)blockIdx.x * cols;
    float acc = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        acc += row[c];
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}

/* kernelscope:plan
[[launch]]
kernel = "row_sum"
grid = ["rows"]
block = ["256"]
args = ["x", "out", "rows", "cols"]
*/
