// Four elements per thread with 16-byte loads and stores; the n % 4 leftovers one at a time.
__device__ __forceinline__ float gelu_tanh(float v)
{
    return 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
}

extern "C" __global__ void gelu(const float *__restrict__ x, float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int quads = n / 4;
    if (i < quads) {
        float4 v = reinterpret_cast<const float4 *>(x)[i];
        reinterpret_cast<float4 *>(out)[i] = make_float4(gelu_tanh(v.x), gelu_tanh(v.y), gelu_tanh(v.z), gelu_tanh(v.w));
    }
    int tail = quads * 4 + i;
    if (i < n % 4)
        out[tail] = gelu_tanh(x[tail]);
}

/* kernelscope:plan
[[launch]]
kernel = "gelu"
grid = ["ceil_div(n, 1024)"]
block = ["256"]
args = ["x", "out", "n"]
*/
