// threadIdx.x walks down the rows of a plane, so the lanes of a warp are a row apart; weights and
// inputs are read from global memory for every tap.
extern "C" __global__ void depthwise_conv2d(const float *x, const float *weight, float *out, int c, int h, int w)
{
    int y = blockIdx.x * blockDim.x + threadIdx.x;
    int xx = blockIdx.y * blockDim.y + threadIdx.y;
    if (y >= h || xx >= w)
        return;
    int plane = blockIdx.z, ch = plane % c;
    const float *src = x + (long)plane * h * w;
    float acc = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int sy = y + dy, sx = xx + dx;
            if (sy >= 0 && sy < h && sx >= 0 && sx < w)
                acc += weight[ch * 9 + (dy + 1) * 3 + dx + 1] * src[sy * w + sx];
        }
    out[(long)plane * h * w + y * w + xx] = acc;
}

/* kernelscope:plan
[[launch]]
kernel = "depthwise_conv2d"
grid = ["ceil_div(h, 16)", "ceil_div(w, 16)", "n * c"]
block = ["16", "16"]
args = ["x", "weight", "out", "c", "h", "w"]
*/
