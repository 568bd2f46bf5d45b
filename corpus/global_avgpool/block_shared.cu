// One block per plane: coalesced strided reads and a tree reduction in shared memory.
extern "C" __global__ void global_avgpool(const float *x, float *out, int planes, int hw)
{
    __shared__ float scratch[256];
    const float *plane = x + (long)blockIdx.x * hw;
    float sum = 0.0f;
    for (int k = threadIdx.x; k < hw; k += blockDim.x)
        sum += plane[k];
    scratch[threadIdx.x] = sum;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            scratch[threadIdx.x] += scratch[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = scratch[0] / hw;
}

/* kernelscope:plan
[[launch]]
kernel = "global_avgpool"
grid = ["n * c"]
block = ["256"]
args = ["x", "out", "planes", "hw"]
*/
