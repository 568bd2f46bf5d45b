// One block per row: coalesced strided passes, with the row maximum and the sum of exponentials
// combined across the block by tree reductions in shared memory.
#define NEG_INF __int_as_float(0xff800000)   // -infinity: NVRTC has no <math.h> INFINITY

__device__ float block_reduce(float v, float *scratch, bool take_max)
{
    scratch[threadIdx.x] = v;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) {
            float other = scratch[threadIdx.x + half];
            scratch[threadIdx.x] = take_max ? fmaxf(scratch[threadIdx.x], other) : scratch[threadIdx.x] + other;
        }
        __syncthreads();
    }
    float result = scratch[0];
    __syncthreads();
    return result;
}

extern "C" __global__ void softmax(const float *x, float *out, int rows, int cols)
{
    __shared__ float scratch[256];
    const float *row = x + (long)blockIdx.x * cols;
    float *dst = out + (long)blockIdx.x * cols;
    float peak = NEG_INF;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        peak = fmaxf(peak, row[c]);
    peak = block_reduce(peak, scratch, true);
    float sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        sum += expf(row[c] - peak);
    sum = block_reduce(sum, scratch, false);
    float inv = 1.0f / sum;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        dst[c] = expf(row[c] - peak) * inv;
}

/* kernelscope:plan
[[launch]]
kernel = "softmax"
grid = ["rows"]
block = ["256"]
args = ["x", "out", "rows", "cols"]
*/
