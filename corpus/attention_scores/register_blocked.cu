// 64 x 64 scores per block of 256 threads, 4 x 4 per thread accumulated in registers; q and k
// tiles are stored transposed in shared memory so the inner loop reads rows.
#define BM 64
#define BK 16

extern "C" __global__ void attention_scores(const float *q, const float *k, float *scores, float scale, int seq, int dim)
{
    __shared__ float qs[BK][BM + 4], ks[BK][BM + 4];
    const float *qb = q + (long)blockIdx.z * seq * dim, *kb = k + (long)blockIdx.z * seq * dim;
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BM;
    float acc[4][4] = {};
    for (int t0 = 0; t0 < dim; t0 += BK) {
        for (int e = threadIdx.x; e < BM * BK; e += 256) {
            int r = e / BK, t = e % BK;
            qs[t][r] = row0 + r < seq && t0 + t < dim ? qb[(long)(row0 + r) * dim + t0 + t] : 0.0f;
            ks[t][r] = col0 + r < seq && t0 + t < dim ? kb[(long)(col0 + r) * dim + t0 + t] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int t = 0; t < BK; t++) {
            float qv[4], kv[4];
#pragma unroll
            for (int u = 0; u < 4; u++) {
                qv[u] = qs[t][ty * 4 + u];
                kv[u] = ks[t][tx + 16 * u];
            }
#pragma unroll
            for (int a = 0; a < 4; a++)
#pragma unroll
                for (int b = 0; b < 4; b++)
                    acc[a][b] = fmaf(qv[a], kv[b], acc[a][b]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int a = 0; a < 4; a++)
#pragma unroll
        for (int b = 0; b < 4; b++) {
            int i = row0 + ty * 4 + a, j = col0 + tx + 16 * b;
            if (i < seq && j < seq)
                scores[((long)blockIdx.z * seq + i) * seq + j] = acc[a][b] * scale;
        }
}

/* kernelscope:plan
[[launch]]
kernel = "attention_scores"
grid = ["ceil_div(seq, 64)", "ceil_div(seq, 64)", "batch"]
block = ["256"]
args = ["q", "k", "scores", "scale", "seq", "dim"]
*/
