// One thread per row: serial passes for the mean, the variance and the output; the lanes of a warp
// read 32 different rows.
extern "C" __global__ void layer_norm(const float *x, const float *weight, const float *bias, float *out,
                                      int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const float *row = x + (long)r * cols;
    float *dst = out + (long)r * cols;
    float mean = 0.0f;
    for (int c = 0; c < cols; c++)
        mean += row[c];
    mean /= cols;
    float var = 0.0f;
    for (int c = 0; c < cols; c++)
        var += (row[c] - mean) * (row[c] - mean);
    float inv = rsqrtf(var / cols + 1e-5f);
    for (int c = 0; c < cols; c++)
        dst[c] = (row[c] - mean) * inv * weight[c] + bias[c];
}

/* kernelscope:plan
[[launch]]
kernel = "layer_norm"
grid = ["ceil_div(rows, 128)"]
block = ["128"]
args = ["x", "weight", "bias", "out", "rows", "cols"]
*/
