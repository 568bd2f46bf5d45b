// Each thread sums its own chunk of 32 elements; the last chunk may be shorter.
__global__ void chunked(const float* in, float* out, int n)
{
    int first = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
    float s = 0.0f;
    for (int i = first; i < min(first + 32, n); ++i)
        s += in[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
