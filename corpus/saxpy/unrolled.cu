// Grid-stride loop over a fixed-size grid, unrolled four times so each thread keeps four
// independent loads in flight.
extern "C" __global__ void saxpy(const float *x, const float *y, float *out, float alpha, int n)
{
    int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
#pragma unroll
        for (int k = 0; k < 4; k++)
            out[i + k * stride] = alpha * x[i + k * stride] + y[i + k * stride];
    }
    for (; i < n; i += stride)
        out[i] = alpha * x[i] + y[i];
}

/* kernelscope:plan
[[launch]]
kernel = "saxpy"
grid = ["min(ceil_div(n, 256 * 4), 132 * 8)"]
block = ["256"]
args = ["x", "y", "out", "alpha", "n"]
*/
