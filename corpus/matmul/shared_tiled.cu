// 16 x 16 tiles of A and B are staged in shared memory, so each global element is loaded once per
// tile instead of once per output.
#define T 16

extern "C" __global__ void matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[T][T], bs[T][T];
    int j = blockIdx.x * T + threadIdx.x, i = blockIdx.y * T + threadIdx.y;
    float acc = 0.0f;
    for (int p0 = 0; p0 < k; p0 += T) {
        as[threadIdx.y][threadIdx.x] = i < m && p0 + threadIdx.x < k ? a[(long)i * k + p0 + threadIdx.x] : 0.0f;
        bs[threadIdx.y][threadIdx.x] = j < n && p0 + threadIdx.y < k ? b[(long)(p0 + threadIdx.y) * n + j] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < T; p++)
            acc += as[threadIdx.y][p] * bs[p][threadIdx.x];
        __syncthreads();
    }
    if (i < m && j < n)
        c[(long)i * n + j] = acc;
}
