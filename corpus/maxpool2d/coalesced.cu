// One thread per output in row-major order: a warp reads two 256-byte input row segments and
// writes 128 contiguous bytes.
extern "C" __global__ void maxpool2d(const float *x, float *out, int planes, int h, int w)
{
    int ho = h / 2, wo = w / 2;
    long k = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= (long)planes * ho * wo)
        return;
    int ox = k % wo;
    long t = k / wo;
    int oy = t % ho;
    long p = t / ho;
    const float *src = x + p * h * w + (long)(2 * oy) * w + 2 * ox;
    out[k] = fmaxf(fmaxf(src[0], src[1]), fmaxf(src[w], src[w + 1]));
}

/* kernelscope:plan
[[launch]]
kernel = "maxpool2d"
grid = ["ceil_div(n * c * (h // 2) * (w // 2), 256)"]
block = ["256"]
args = ["x", "out", "planes", "h", "w"]
*/
