// One thread compacts a whole row serially; the lanes of a warp touch 32 different rows.
extern "C" __global__ void stream_compact(const float *x, float *out, int *count, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const float *in_row = x + (long)r * cols;
    float *out_row = out + (long)r * cols;
    int kept = 0;
    for (int c = 0; c < cols; c++)
        if (in_row[c] > 0)
            out_row[kept++] = in_row[c];
    for (int c = kept; c < cols; c++)
        out_row[c] = 0.0f;
    count[r] = kept;
}

/* kernelscope:plan
[[launch]]
kernel = "stream_compact"
grid = ["ceil_div(rows, 128)"]
block = ["128"]
args = ["x", "out", "count", "rows", "cols"]
*/
