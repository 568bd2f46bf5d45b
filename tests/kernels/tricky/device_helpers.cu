// __device__ helpers (forceinline, static, templated, host+device) called
// from kernels; only the __global__ functions are kernels.
template <typename T>
__device__ __forceinline__ T warp_sum(T v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

static __device__ inline int clamp_index(int i, int n)
{
    return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

__host__ __device__ float lerp(float a, float b, float t) { return a + t * (b - a); }

__global__ void smooth(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float left = in[clamp_index(i - 1, n)];
        float right = in[clamp_index(i + 1, n)];
        out[i] = lerp(left, right, 0.5f);
    }
}

__global__ void row_sums(const float* m, float* sums, int cols)
{
    float acc = 0.0f;
    for (int c = threadIdx.x; c < cols; c += 32)
        acc += m[blockIdx.x * cols + c];
    acc = warp_sum(acc);
    if (threadIdx.x == 0) sums[blockIdx.x] = acc;
}
