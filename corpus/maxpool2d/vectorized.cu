// Each thread produces two neighbouring outputs from one 16-byte load per input row (when rows are
// 16-byte aligned, w % 4 == 0) and stores them as a float2; a 3-D grid removes the index division.
extern "C" __global__ void maxpool2d(const float *__restrict__ x, float *__restrict__ out, int planes, int h, int w)
{
    int ho = h / 2, wo = w / 2;
    int ox = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
    int oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ox >= wo || oy >= ho)
        return;
    const float *top = x + (long)blockIdx.z * h * w + (long)(2 * oy) * w + 2 * ox;
    float *dst = out + (long)blockIdx.z * ho * wo + (long)oy * wo + ox;
    if (w % 4 == 0) {
        float4 a = *reinterpret_cast<const float4 *>(top);
        float4 b = *reinterpret_cast<const float4 *>(top + w);
        float2 result = make_float2(fmaxf(fmaxf(a.x, a.y), fmaxf(b.x, b.y)), fmaxf(fmaxf(a.z, a.w), fmaxf(b.z, b.w)));
        *reinterpret_cast<float2 *>(dst) = result;
    } else {
        for (int k = 0; k < 2 && ox + k < wo; k++)
            dst[k] = fmaxf(fmaxf(top[2 * k], top[2 * k + 1]), fmaxf(top[w + 2 * k], top[w + 2 * k + 1]));
    }
}

/* kernelscope:plan
[[launch]]
kernel = "maxpool2d"
grid = ["ceil_div(w // 2, 64)", "ceil_div(h // 2, 8)", "n * c"]
block = ["32", "8"]
args = ["x", "out", "planes", "h", "w"]
*/
