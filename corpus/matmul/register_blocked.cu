// 64 x 64 output tiles per block of 256 threads, each thread accumulating a 4 x 4 block of outputs
// in registers: every shared-memory value read feeds four fused multiply-adds.
#define BM 64
#define BN 64
#define BK 16

extern "C" __global__ void matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[BK][BM + 4];
    __shared__ float bs[BK][BN];
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4] = {};
    for (int p0 = 0; p0 < k; p0 += BK) {
        for (int e = threadIdx.x; e < BM * BK; e += 256) {
            int r = e / BK, p = e % BK;
            as[p][r] = row0 + r < m && p0 + p < k ? a[(long)(row0 + r) * k + p0 + p] : 0.0f;
        }
        for (int e = threadIdx.x; e < BK * BN; e += 256) {
            int p = e / BN, col = e % BN;
            bs[p][col] = p0 + p < k && col0 + col < n ? b[(long)(p0 + p) * n + col0 + col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < BK; p++) {
            float av[4], bv[4];
#pragma unroll
            for (int q = 0; q < 4; q++) {
                av[q] = as[p][ty * 4 + q];
                bv[q] = bs[p][tx + 16 * q];
            }
#pragma unroll
            for (int r = 0; r < 4; r++)
#pragma unroll
                for (int q = 0; q < 4; q++)
                    acc[r][q] = fmaf(av[r], bv[q], acc[r][q]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < 4; r++)
#pragma unroll
        for (int q = 0; q < 4; q++) {
            int i = row0 + ty * 4 + r, j = col0 + tx + 16 * q;
            if (i < m && j < n)
                c[(long)i * n + j] = acc[r][q];
        }
}

/* kernelscope:plan
[[launch]]
kernel = "matmul"
grid = ["ceil_div(n, 64)", "ceil_div(m, 64)"]
block = ["256"]
args = ["a", "b", "c", "m", "n", "k"]
*/
