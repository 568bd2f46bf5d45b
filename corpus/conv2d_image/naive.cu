// The loop nest mapped outside-in (threadIdx.x -> row): neighbouring lanes are a row apart, and
// all 49 taps and weights come from global memory.
#define R 3

extern "C" __global__ void conv2d_image(const float *image, const float *filter, float *out, int h, int w)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= h || j >= w)
        return;
    float acc = 0.0f;
    for (int di = -R; di <= R; di++)
        for (int dj = -R; dj <= R; dj++) {
            int y = i + di, x = j + dj;
            if (y >= 0 && y < h && x >= 0 && x < w)
                acc += filter[(di + R) * 7 + dj + R] * image[(long)y * w + x];
        }
    out[(long)i * w + j] = acc;
}

/* kernelscope:plan
[[launch]]
kernel = "conv2d_image"
grid = ["ceil_div(h, 16)", "ceil_div(w, 16)"]
block = ["16", "16"]
args = ["image", "filter", "out", "h", "w"]
*/
