// One block per row: coalesced strided scan, then a shared-memory tree over (value, index) pairs.
// Ties keep the smaller index, so the answer is the first maximum like the serial loop.
#define NEG_INF __int_as_float(0xff800000)   // -infinity: NVRTC has no <math.h> INFINITY

extern "C" __global__ void row_argmax(const float *x, int *out, int rows, int cols)
{
    __shared__ float values[256];
    __shared__ int indices[256];
    const float *row = x + (long)blockIdx.x * cols;
    float best_value = NEG_INF;
    int best = cols;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        if (row[c] > best_value) {
            best_value = row[c];
            best = c;
        }
    values[threadIdx.x] = best_value;
    indices[threadIdx.x] = best;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) {
            float v = values[threadIdx.x + half];
            int i = indices[threadIdx.x + half];
            if (v > values[threadIdx.x] || (v == values[threadIdx.x] && i < indices[threadIdx.x])) {
                values[threadIdx.x] = v;
                indices[threadIdx.x] = i;
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = indices[0];
}

/* kernelscope:plan
[[launch]]
kernel = "row_argmax"
grid = ["rows"]
block = ["256"]
args = ["x", "out", "rows", "cols"]
*/
