// One block per column, as in a row reduction: the threads walk down the column, so each lane
// reads a different row and every load is a separate 32-byte sector.
extern "C" __global__ void col_sum(const float *x, float *out, int rows, int cols)
{
    __shared__ float partial[256];
    int c = blockIdx.x;
    float acc = 0.0f;
    for (int r = threadIdx.x; r < rows; r += blockDim.x)
        acc += x[(long)r * cols + c];
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[c] = partial[0];
}

/* kernelscope:plan
[[launch]]
kernel = "col_sum"
grid = ["cols"]
block = ["256"]
args = ["x", "out", "rows", "cols"]
*/
