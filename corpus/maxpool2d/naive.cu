// One thread per output, but the output index is decoded column-major (oy fastest), so the lanes
// of a warp go down a column: their loads and stores are whole rows apart.
extern "C" __global__ void maxpool2d(const float *x, float *out, int planes, int h, int w)
{
    int ho = h / 2, wo = w / 2;
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= ho * wo)
        return;
    int oy = k % ho, ox = k / ho;
    const float *src = x + (long)blockIdx.y * h * w + (long)(2 * oy) * w + 2 * ox;
    out[(long)blockIdx.y * ho * wo + (long)oy * wo + ox] = fmaxf(fmaxf(src[0], src[1]), fmaxf(src[w], src[w + 1]));
}

/* kernelscope:plan
[[launch]]
kernel = "maxpool2d"
grid = ["ceil_div((h // 2) * (w // 2), 256)", "n * c"]
block = ["256"]
args = ["x", "out", "planes", "h", "w"]
*/
