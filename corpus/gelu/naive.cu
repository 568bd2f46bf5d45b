// Each thread handles a contiguous run of 64 elements; a warp's accesses are 256 bytes apart.
__device__ __forceinline__ float gelu_tanh(float v)
{
    return 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
}

extern "C" __global__ void gelu(const float *x, float *out, int n)
{
    const int chunk = 64;
    long start = ((long)blockIdx.x * blockDim.x + threadIdx.x) * chunk;
    for (long i = start; i < start + chunk && i < n; i++)
        out[i] = gelu_tanh(x[i]);
}

/* kernelscope:plan
[[launch]]
kernel = "gelu"
grid = ["ceil_div(n, 256 * 64)"]
block = ["256"]
args = ["x", "out", "n"]
*/
