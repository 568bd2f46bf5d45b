// 16 x 16 tiles of P and Q rows are staged in shared memory (coalesced loads along d), and each
// thread reads its pair's coordinates from there.
#define T 16

extern "C" __global__ void pairwise_dist(const float *p, const float *q, float *out, int m, int n, int d)
{
    __shared__ float ps[T][T + 1], qs[T][T + 1];
    int i = blockIdx.y * T + threadIdx.y, j = blockIdx.x * T + threadIdx.x;
    int qrow = blockIdx.x * T + threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < d; k0 += T) {
        int k = k0 + threadIdx.x;
        ps[threadIdx.y][threadIdx.x] = i < m && k < d ? p[(long)i * d + k] : 0.0f;
        qs[threadIdx.y][threadIdx.x] = qrow < n && k < d ? q[(long)qrow * d + k] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int t = 0; t < T; t++) {
            float diff = ps[threadIdx.y][t] - qs[threadIdx.x][t];
            acc += diff * diff;
        }
        __syncthreads();
    }
    if (i < m && j < n)
        out[(long)i * n + j] = acc;
}
