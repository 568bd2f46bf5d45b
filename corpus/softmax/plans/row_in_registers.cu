/* kernelscope:plan
# One block per row, sized so that each thread keeps at most 8 of the row's values in registers:
# the row is read from DRAM once (the two-pass shared version reads it three times).
[[launch]]
kernel = "softmax_rows"
grid = ["rows"]
block = ["min(1024, 32 * ceil_div(cols, 256))"]
args = ["x", "out", "rows", "cols"]
*/
#define PER_THREAD 8
#define NEG_INF __int_as_float(0xff800000)

// Combine one value per thread across the block: shuffles within warps, then warp 0 over the warps.
__device__ float block_combine(float v, float *shared, bool take_max)
{
    for (int offset = 16; offset > 0; offset /= 2) {
        float other = __shfl_xor_sync(0xffffffffu, v, offset);
        v = take_max ? fmaxf(v, other) : v + other;
    }
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    if (lane == 0)
        shared[warp] = v;
    __syncthreads();
    v = lane < warps ? shared[lane] : (take_max ? NEG_INF : 0.0f);
    for (int offset = 16; offset > 0; offset /= 2) {
        float other = __shfl_xor_sync(0xffffffffu, v, offset);
        v = take_max ? fmaxf(v, other) : v + other;
    }
    __syncthreads();          // `shared` is reused by the next call
    return v;
}

extern "C" __global__ void softmax_rows(const float *__restrict__ x, float *__restrict__ out, int rows, int cols)
{
    __shared__ float shared[32];
    const float *row = x + (long)blockIdx.x * cols;
    float *dst = out + (long)blockIdx.x * cols;
    float v[PER_THREAD];
    float peak = NEG_INF;
#pragma unroll
    for (int k = 0; k < PER_THREAD; k++) {
        int c = threadIdx.x + k * blockDim.x;
        v[k] = c < cols ? __ldg(&row[c]) : NEG_INF;
        peak = fmaxf(peak, v[k]);
    }
    for (int c = threadIdx.x + PER_THREAD * blockDim.x; c < cols; c += blockDim.x)   // rows too long for registers
        peak = fmaxf(peak, row[c]);
    peak = block_combine(peak, shared, true);
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < PER_THREAD; k++) {
        v[k] = threadIdx.x + k * blockDim.x < cols ? expf(v[k] - peak) : 0.0f;
        sum += v[k];
    }
    for (int c = threadIdx.x + PER_THREAD * blockDim.x; c < cols; c += blockDim.x)
        sum += expf(row[c] - peak);
    float inv = 1.0f / block_combine(sum, shared, false);
#pragma unroll
    for (int k = 0; k < PER_THREAD; k++) {
        int c = threadIdx.x + k * blockDim.x;
        if (c < cols)
            dst[c] = v[k] * inv;
    }
    for (int c = threadIdx.x + PER_THREAD * blockDim.x; c < cols; c += blockDim.x)
        dst[c] = expf(row[c] - peak) * inv;
}
