// One thread per sample: serial passes for the maximum and the sum of exponentials; the lanes of a
// warp read 32 different rows of logits.
#define NEG_INF __int_as_float(0xff800000)   // -infinity: NVRTC has no <math.h> INFINITY

extern "C" __global__ void cross_entropy(const float *logits, const int *target, float *loss, int batch, int classes)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= batch)
        return;
    const float *row = logits + (long)r * classes;
    float peak = NEG_INF;
    for (int c = 0; c < classes; c++)
        peak = fmaxf(peak, row[c]);
    float sum = 0.0f;
    for (int c = 0; c < classes; c++)
        sum += expf(row[c] - peak);
    loss[r] = peak + logf(sum) - row[target[r]];
}

/* kernelscope:plan
[[launch]]
kernel = "cross_entropy"
grid = ["ceil_div(batch, 128)"]
block = ["128"]
args = ["logits", "target", "loss", "batch", "classes"]
*/
