// One thread per output value, the full cin x 3 x 3 sum read straight from global memory.
extern "C" __global__ void conv2d(const float *x, const float *weight, const float *bias, float *out,
                                  int n, int cin, int cout, int h, int w)
{
    long k = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= (long)n * cout * h * w)
        return;
    int xx = k % w, y = (k / w) % h, co = (k / ((long)w * h)) % cout;
    int b = k / ((long)w * h * cout);
    float acc = bias[co];
    for (int ci = 0; ci < cin; ci++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int sy = y + dy, sx = xx + dx;
                if (sy >= 0 && sy < h && sx >= 0 && sx < w)
                    acc += weight[((co * cin + ci) * 3 + dy + 1) * 3 + dx + 1] * x[(((long)b * cin + ci) * h + sy) * w + sx];
            }
    out[k] = acc;
}

/* kernelscope:plan
[[launch]]
kernel = "conv2d"
grid = ["ceil_div(n * cout * h * w, 256)"]
block = ["256"]
args = ["x", "weight", "bias", "out", "n", "cin", "cout", "h", "w"]
*/
