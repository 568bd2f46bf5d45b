// 64 x 64 pairs per block, 4 x 4 pairs per thread in registers; every coordinate read from shared
// memory serves four pairs. Out-of-range coordinates are zero on both sides, adding nothing.
#define BM 64
#define BN 64
#define BK 16

extern "C" __global__ void pairwise_dist(const float *p, const float *q, float *out, int m, int n, int d)
{
    __shared__ float ps[BK][BM + 4], qs[BK][BN + 4];
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < d; k0 += BK) {
        for (int e = threadIdx.x; e < BM * BK; e += 256) {
            int r = e / BK, k = e % BK;
            ps[k][r] = row0 + r < m && k0 + k < d ? p[(long)(row0 + r) * d + k0 + k] : 0.0f;
            qs[k][r] = col0 + r < n && k0 + k < d ? q[(long)(col0 + r) * d + k0 + k] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float pv[4], qv[4];
#pragma unroll
            for (int t = 0; t < 4; t++) {
                pv[t] = ps[k][ty * 4 + t];
                qv[t] = qs[k][tx + 16 * t];
            }
#pragma unroll
            for (int a = 0; a < 4; a++)
#pragma unroll
                for (int b = 0; b < 4; b++) {
                    float diff = pv[a] - qv[b];
                    acc[a][b] = fmaf(diff, diff, acc[a][b]);
                }
        }
        __syncthreads();
    }
#pragma unroll
    for (int a = 0; a < 4; a++)
#pragma unroll
        for (int b = 0; b < 4; b++) {
            int i = row0 + ty * 4 + a, j = col0 + tx + 16 * b;
            if (i < m && j < n)
                out[(long)i * n + j] = acc[a][b];
        }
}

/* kernelscope:plan
[[launch]]
kernel = "pairwise_dist"
grid = ["ceil_div(n, 64)", "ceil_div(m, 64)"]
block = ["256"]
args = ["p", "q", "out", "m", "n", "d"]
*/
