// threadIdx.x runs along a row, so each warp writes 128 contiguous bytes.
extern "C" __global__ void outer_product(const float *a, const float *b, float *out, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < m && j < n)
        out[(long)i * n + j] = a[i] * b[j];
}
