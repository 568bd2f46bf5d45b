// 16-byte loads and stores: four elements per thread, the n % 4 leftovers one at a time.
extern "C" __global__ void saxpy(const float *x, const float *y, float *out, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int quads = n / 4;
    if (i < quads) {
        float4 a = reinterpret_cast<const float4 *>(x)[i];
        float4 b = reinterpret_cast<const float4 *>(y)[i];
        reinterpret_cast<float4 *>(out)[i] =
            make_float4(alpha * a.x + b.x, alpha * a.y + b.y, alpha * a.z + b.z, alpha * a.w + b.w);
    }
    int tail = quads * 4 + i;
    if (i < n % 4)
        out[tail] = alpha * x[tail] + y[tail];
}

/* kernelscope:plan
[[launch]]
kernel = "saxpy"
grid = ["ceil_div(n, 1024)"]
block = ["256"]
args = ["x", "y", "out", "alpha", "n"]
*/
