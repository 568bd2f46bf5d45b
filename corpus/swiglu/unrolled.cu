// A grid-stride loop over a fixed grid, unrolled four times so each thread has four independent
// loads in flight.
__device__ __forceinline__ float silu(float v)
{
    return v / (1.0f + expf(-v));
}

extern "C" __global__ void swiglu(const float *gate, const float *up, float *out, int n)
{
    int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
#pragma unroll
        for (int k = 0; k < 4; k++)
            out[i + k * stride] = silu(gate[i + k * stride]) * up[i + k * stride];
    }
    for (; i < n; i += stride)
        out[i] = silu(gate[i]) * up[i];
}

/* kernelscope:plan
[[launch]]
kernel = "swiglu"
grid = ["min(ceil_div(n, 256 * 4), 132 * 8)"]
block = ["256"]
args = ["gate", "up", "out", "n"]
*/
