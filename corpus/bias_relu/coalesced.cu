// threadIdx.x runs along a row: each warp reads and writes 128 contiguous bytes.
extern "C" __global__ void bias_relu(const float *x, const float *bias, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(long)r * cols + c] = fmaxf(x[(long)r * cols + c] + bias[c], 0.0f);
}
