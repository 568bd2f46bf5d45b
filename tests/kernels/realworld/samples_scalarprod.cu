// Models NVIDIA cuda-samples' scalarProd, written here from its description: vectorN dot products
// of elementN elements; each block walks vectors in a grid-stride loop, its threads accumulate
// ACCUM_N partial sums (stride ACCUM_N through the vector) into shared memory, then a shared tree
// reduces them and thread 0 writes the result.
#define IMUL(a, b) __mul24(a, b)
#define ACCUM_N 1024

__global__ void scalarProdGPU(float* d_C, float* d_A, float* d_B, int vectorN, int elementN) {
    __shared__ float accumResult[ACCUM_N];
    for (int vec = blockIdx.x; vec < vectorN; vec += gridDim.x) {
        int vectorBase = IMUL(elementN, vec);
        int vectorEnd = vectorBase + elementN;
        for (int iAccum = threadIdx.x; iAccum < ACCUM_N; iAccum += blockDim.x) {
            float sum = 0;
            for (int pos = vectorBase + iAccum; pos < vectorEnd; pos += ACCUM_N) {
                sum += d_A[pos] * d_B[pos];
            }
            accumResult[iAccum] = sum;
        }
        for (int stride = ACCUM_N / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            for (int iAccum = threadIdx.x; iAccum < stride; iAccum += blockDim.x) {
                accumResult[iAccum] += accumResult[stride + iAccum];
            }
        }
        __syncthreads();
        if (threadIdx.x == 0) d_C[vec] = accumResult[0];
    }
}
