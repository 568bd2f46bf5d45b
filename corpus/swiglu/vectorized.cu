// Four elements per thread with 16-byte loads and stores; the n % 4 leftovers one at a time.
__device__ __forceinline__ float silu(float v)
{
    return v / (1.0f + expf(-v));
}

extern "C" __global__ void swiglu(const float *__restrict__ gate, const float *__restrict__ up,
                                  float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int quads = n / 4;
    if (i < quads) {
        float4 g = reinterpret_cast<const float4 *>(gate)[i];
        float4 u = reinterpret_cast<const float4 *>(up)[i];
        reinterpret_cast<float4 *>(out)[i] = make_float4(silu(g.x) * u.x, silu(g.y) * u.y, silu(g.z) * u.z, silu(g.w) * u.w);
    }
    int tail = quads * 4 + i;
    if (i < n % 4)
        out[tail] = silu(gate[tail]) * up[tail];
}

/* kernelscope:plan
[[launch]]
kernel = "swiglu"
grid = ["ceil_div(n, 1024)"]
block = ["256"]
args = ["gate", "up", "out", "n"]
*/
