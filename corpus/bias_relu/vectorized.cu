// Four columns per thread with 16-byte loads of x and bias and a 16-byte store when rows are
// 16-byte aligned (cols % 4 == 0); otherwise the same four columns one at a time.
extern "C" __global__ void bias_relu(const float *__restrict__ x, const float *__restrict__ bias,
                                     float *__restrict__ out, int rows, int cols)
{
    int c = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols)
        return;
    long at = (long)r * cols + c;
    if (cols % 4 == 0) {
        float4 v = *reinterpret_cast<const float4 *>(x + at);
        float4 b = __ldg(reinterpret_cast<const float4 *>(bias + c));
        *reinterpret_cast<float4 *>(out + at) =
            make_float4(fmaxf(v.x + b.x, 0.0f), fmaxf(v.y + b.y, 0.0f), fmaxf(v.z + b.z, 0.0f), fmaxf(v.w + b.w, 0.0f));
    } else {
        for (int k = 0; k < 4 && c + k < cols; k++)
            out[at + k] = fmaxf(x[at + k] + bias[c + k], 0.0f);
    }
}

/* kernelscope:plan
[[launch]]
kernel = "bias_relu"
grid = ["ceil_div(cols, 256)", "ceil_div(rows, 4)"]
block = ["64", "4"]
args = ["x", "bias", "out", "rows", "cols"]
*/
