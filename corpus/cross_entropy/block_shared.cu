// One block per sample: coalesced strided passes, maximum and sum combined across the block by
// tree reductions in shared memory.
#define NEG_INF __int_as_float(0xff800000)   // -infinity: NVRTC has no <math.h> INFINITY

extern "C" __global__ void cross_entropy(const float *logits, const int *target, float *loss, int batch, int classes)
{
    __shared__ float scratch[256];
    const float *row = logits + (long)blockIdx.x * classes;
    float peak = NEG_INF;
    for (int c = threadIdx.x; c < classes; c += blockDim.x)
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
    for (int c = threadIdx.x; c < classes; c += blockDim.x)
        sum += expf(row[c] - peak);
    scratch[threadIdx.x] = sum;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            scratch[threadIdx.x] += scratch[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        loss[blockIdx.x] = peak + logf(scratch[0]) - row[target[blockIdx.x]];
}

/* kernelscope:plan
[[launch]]
kernel = "cross_entropy"
grid = ["batch"]
block = ["256"]
args = ["logits", "target", "loss", "batch", "classes"]
*/
