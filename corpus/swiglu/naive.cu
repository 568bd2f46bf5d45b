// Each thread handles a contiguous run of 64 elements; a warp's accesses are 256 bytes apart.
__device__ __forceinline__ float silu(float v)
{
    return v / (1.0f + expf(-v));
}

extern "C" __global__ void swiglu(const float *gate, const float *up, float *out, int n)
{
    const int chunk = 64;
    long start = ((long)blockIdx.x * blockDim.x + threadIdx.x) * chunk;
    for (long i = start; i < start + chunk && i < n; i++)
        out[i] = silu(gate[i]) * up[i];
}

/* kernelscope:plan
[[launch]]
kernel = "swiglu"
grid = ["ceil_div(n, 256 * 64)"]
block = ["256"]
args = ["gate", "up", "out", "n"]
*/
