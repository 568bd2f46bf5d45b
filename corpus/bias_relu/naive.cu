// threadIdx.x walks down the rows: a warp's 32 loads and stores fall in 32 different rows.
extern "C" __global__ void bias_relu(const float *x, const float *bias, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    int c = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(long)r * cols + c] = fmaxf(x[(long)r * cols + c] + bias[c], 0.0f);
}

/* kernelscope:plan
[[launch]]
kernel = "bias_relu"
grid = ["ceil_div(rows, 16)", "ceil_div(cols, 16)"]
block = ["16", "16"]
args = ["x", "bias", "out", "rows", "cols"]
*/
