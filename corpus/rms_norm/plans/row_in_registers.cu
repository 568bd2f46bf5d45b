/* kernelscope:plan
# One block per row, sized so that each thread keeps at most 8 of the row's values in registers:
# the row is read from DRAM once.
[[launch]]
kernel = "rms_norm_rows"
grid = ["rows"]
block = ["min(1024, 32 * ceil_div(cols, 256))"]
args = ["x", "weight", "out", "rows", "cols"]
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

extern "C" __global__ void rms_norm_rows(const float *__restrict__ x, const float *__restrict__ weight,
                                         float *__restrict__ out, int rows, int cols)
{
    __shared__ float shared[32];
    const float *row = x + (long)blockIdx.x * cols;
    float *dst = out + (long)blockIdx.x * cols;
    float v[PER_THREAD];
    float squares = 0.0f;
#pragma unroll
    for (int k = 0; k < PER_THREAD; k++) {
        int c = threadIdx.x + k * blockDim.x;
        v[k] = c < cols ? __ldg(&row[c]) : 0.0f;
        squares = fmaf(v[k], v[k], squares);
    }
    for (int c = threadIdx.x + PER_THREAD * blockDim.x; c < cols; c += blockDim.x)   // rows too long for registers
        squares = fmaf(row[c], row[c], squares);
    float scale = rsqrtf(block_sum(squares, shared) / cols + 1e-6f);
#pragma unroll
    for (int k = 0; k < PER_THREAD; k++) {
        int c = threadIdx.x + k * blockDim.x;
        if (c < cols)
            dst[c] = v[k] * scale * __ldg(&weight[c]);
    }
    for (int c = threadIdx.x + PER_THREAD * blockDim.x; c < cols; c += blockDim.x)
        dst[c] = row[c] * scale * weight[c];
}
