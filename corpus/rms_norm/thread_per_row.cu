// One thread per row: a serial pass for the mean square and one for the output; the lanes of a
// warp read 32 different rows.
extern "C" __global__ void rms_norm(const float *x, const float *weight, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const float *row = x + (long)r * cols;
    float sq = 0.0f;
    for (int c = 0; c < cols; c++)
        sq += row[c] * row[c];
    float scale = rsqrtf(sq / cols + 1e-6f);
    for (int c = 0; c < cols; c++)
        out[(long)r * cols + c] = row[c] * scale * weight[c];
}

/* kernelscope:plan
[[launch]]
kernel = "rms_norm"
grid = ["ceil_div(rows, 128)"]
block = ["128"]
args = ["x", "weight", "out", "rows", "cols"]
*/
