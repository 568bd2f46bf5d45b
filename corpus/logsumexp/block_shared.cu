// One block per row: coalesced strided passes, the maximum and the sum each combined across the
// block by a tree reduction in shared memory.
#define NEG_INF __int_as_float(0xff800000)   // -infinity: NVRTC has no <math.h> INFINITY

extern "C" __global__ void logsumexp(const float *x, float *out, int rows, int cols)
{
    __shared__ float scratch[256];
    const float *row = x + (long)blockIdx.x * cols;
    float peak = NEG_INF;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        peak = fmaxf(peak, row[c]);
    scratch[threadIdx.x] = peak;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            scratch[threadIdx.x] = fmaxf(scratch[threadIdx.x], scratch[threadIdx.x + half]);
        __syncthreads();
    }
    peak = scratch[0];
    __syncthreads();
    float sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        sum += expf(row[c] - peak);
    scratch[threadIdx.x] = sum;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            scratch[threadIdx.x] += scratch[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = peak + logf(scratch[0]);
}

/* kernelscope:plan
[[launch]]
kernel = "logsumexp"
grid = ["rows"]
block = ["256"]
args = ["x", "out", "rows", "cols"]
*/
