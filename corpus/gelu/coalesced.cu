// One element per thread; neighbouring lanes touch neighbouring floats.
__device__ __forceinline__ float gelu_tanh(float v)
{
    return 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
}

extern "C" __global__ void gelu(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = gelu_tanh(x[i]);
}
