// One thread per row: a serial pass for the maximum, one for the sum of exponentials; the lanes
// of a warp read 32 different rows.
#define NEG_INF __int_as_float(0xff800000)   // -infinity: NVRTC has no <math.h> INFINITY

extern "C" __global__ void logsumexp(const float *x, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const float *row = x + (long)r * cols;
    float peak = NEG_INF;
    for (int c = 0; c < cols; c++)
        peak = fmaxf(peak, row[c]);
    float sum = 0.0f;
    for (int c = 0; c < cols; c++)
        sum += expf(row[c] - peak);
    out[r] = peak + logf(sum);
}

/* kernelscope:plan
[[launch]]
kernel = "logsumexp"
grid = ["ceil_div(rows, 128)"]
block = ["128"]
args = ["x", "out", "rows", "cols"]
*/
