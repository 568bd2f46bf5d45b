// One thread per row making three serial passes (max, sum of exponentials, normalise); the lanes
// of a warp read 32 different rows.
#define NEG_INF __int_as_float(0xff800000)   // -infinity: NVRTC has no <math.h> INFINITY

extern "C" __global__ void softmax(const float *x, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const float *row = x + (long)r * cols;
    float *dst = out + (long)r * cols;
    float peak = NEG_INF;
    for (int c = 0; c < cols; c++)
        peak = fmaxf(peak, row[c]);
    float sum = 0.0f;
    for (int c = 0; c < cols; c++)
        sum += expf(row[c] - peak);
    for (int c = 0; c < cols; c++)
        dst[c] = expf(row[c] - peak) / sum;
}

/* kernelscope:plan
[[launch]]
kernel = "softmax"
grid = ["ceil_div(rows, 128)"]
block = ["128"]
args = ["x", "out", "rows", "cols"]
*/
