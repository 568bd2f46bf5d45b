// One thread per pair straight from global memory: the lanes of a warp read Q rows d floats apart.
extern "C" __global__ void pairwise_dist(const float *p, const float *q, float *out, int m, int n, int d)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= m || j >= n)
        return;
    float acc = 0.0f;
    for (int k = 0; k < d; k++) {
        float diff = p[(long)i * d + k] - q[(long)j * d + k];
        acc += diff * diff;
    }
    out[(long)i * n + j] = acc;
}
