/* kernelscope:plan
# One block per row, sized so that each thread keeps at most 8 of the row's values in registers:
# the row is read once, and the variance is taken around the mean from those registers.
[[launch]]
kernel = "layer_norm_rows"
grid = ["rows"]
block = ["min(1024, 32 * ceil_div(cols, 256))"]
args = ["x", "weight", "bias", "out", "rows", "cols"]
*/
#define PER_THREAD 8

__device__ float block_sum(float v, float *shared)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0)
        shared[warp] = v;
    __syncthreads();
    v = lane < blockDim.x / 32 ? shared[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    __syncthreads();
    return v;
}

extern "C" __global__ void layer_norm_rows(const float *__restrict__ x, const float *__restrict__ weight,
                                           const float *__restrict__ bias, float *__restrict__ out, int rows, int cols)
{
    __shared__ float shared[32];
    const float *row = x + (long)blockIdx.x * cols;
    float *dst = out + (long)blockIdx.x * cols;
    float v[PER_THREAD];
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < PER_THREAD; k++) {
        int c = threadIdx.x + k * blockDim.x;
        v[k] = c < cols ? __ldg(&row[c]) : 0.0f;
        sum += v[k];
    }
    for (int c = threadIdx.x + PER_THREAD * blockDim.x; c < cols; c += blockDim.x)   // rows too long for registers
        sum += row[c];
    float mean = block_sum(sum, shared) / cols;
    float squares = 0.0f;
#pragma unroll
    for (int k = 0; k < PER_THREAD; k++) {
        float d = threadIdx.x + k * blockDim.x < cols ? v[k] - mean : 0.0f;
        squares = fmaf(d, d, squares);
    }
    for (int c = threadIdx.x + PER_THREAD * blockDim.x; c < cols; c += blockDim.x) {
        float d = row[c] - mean;
        squares = fmaf(d, d, squares);
    }
    float rstd = rsqrtf(block_sum(squares, shared) / cols + 1e-5f);
#pragma unroll
    for (int k = 0; k < PER_THREAD; k++) {
        int c = threadIdx.x + k * blockDim.x;
        if (c < cols)
            dst[c] = (v[k] - mean) * rstd * __ldg(&weight[c]) + __ldg(&bias[c]);
    }
    for (int c = threadIdx.x + PER_THREAD * blockDim.x; c < cols; c += blockDim.x)
        dst[c] = (row[c] - mean) * rstd * weight[c] + bias[c];
}
