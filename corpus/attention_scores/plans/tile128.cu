/* kernelscope:plan
# 128 x 128 score tiles per block of 256 threads (8 x 8 per thread), one grid layer per batch entry:
# twice the outputs per shared-memory value of the 64 x 64 version, with its own grid.
[[launch]]
kernel = "attention_tile128"
grid = ["ceil_div(seq, 128)", "ceil_div(seq, 128)", "batch"]
block = ["256"]
args = ["q", "k", "scores", "scale", "seq", "dim"]
*/
#define BM 128
#define BN 128
#define BK 8
#define PAD 4

// The next k-slice of the A and B tiles, fetched into registers while the current one is used.
struct Slice {
    float a[4], b[4];
};

__device__ __forceinline__ void fetch(Slice &s, const float *a, const float *b, int m, int n, int k,
                                      int lda, int row0, int col0, int p0)
{
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int e = threadIdx.x + 256 * i;
        int r = e / BK, p = e % BK;                      // A: 128 rows x 8 k-values
        s.a[i] = row0 + r < m && p0 + p < k ? __ldg(&a[(long)(row0 + r) * lda + p0 + p]) : 0.0f;
        s.b[i] = col0 + r < n && p0 + p < k ? __ldg(&b[(long)(col0 + r) * lda + p0 + p]) : 0.0f;   // rows of keys
    }
}

__device__ __forceinline__ void store(const Slice &s, float (*as)[BM + PAD], float (*bs)[BN + PAD])
{
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int e = threadIdx.x + 256 * i;
        as[e % BK][e / BK] = s.a[i];
        bs[e % BK][e / BK] = s.b[i];
    }
}

extern "C" __global__ void __launch_bounds__(256, 2)
attention_tile128(const float *__restrict__ q, const float *__restrict__ keys, float *__restrict__ scores, float scale,
                  int seq, int dim)
{
    // scores[z] = q[z] keys[z]^T: keys rows are read like a weight matrix's, dim values each
    const float *a = q + (long)blockIdx.z * seq * dim, *b = keys + (long)blockIdx.z * seq * dim;
    float *c = scores + (long)blockIdx.z * seq * seq;
    int m = seq, n = seq, k = dim, fin = dim;
    __shared__ __align__(16) float as[BK][BM + PAD];
    __shared__ __align__(16) float bs[BK][BN + PAD];
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[8][8] = {};
    Slice next;
    fetch(next, a, b, m, n, k, fin, row0, col0, 0);
    store(next, as, bs);
    __syncthreads();
    for (int p0 = 0; p0 < k; p0 += BK) {
        bool more = p0 + BK < k;
        if (more)
            fetch(next, a, b, m, n, k, fin, row0, col0, p0 + BK);
#pragma unroll
        for (int p = 0; p < BK; p++) {
            float4 a0 = *reinterpret_cast<const float4 *>(&as[p][ty * 4]);
            float4 a1 = *reinterpret_cast<const float4 *>(&as[p][64 + ty * 4]);
            float4 b0 = *reinterpret_cast<const float4 *>(&bs[p][tx * 4]);
            float4 b1 = *reinterpret_cast<const float4 *>(&bs[p][64 + tx * 4]);
            float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++)
                    acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
        __syncthreads();
        if (more) {
            store(next, as, bs);
            __syncthreads();
        }
    }
#pragma unroll
    for (int i = 0; i < 8; i++) {
        int row = row0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
        if (row >= m)
            continue;
#pragma unroll
        for (int half = 0; half < 2; half++) {
            int col = col0 + half * 64 + tx * 4;
            float *dst = c + (long)row * n + col;
            if (n % 4 == 0 && col + 3 < n) {
                *reinterpret_cast<float4 *>(dst) = make_float4(acc[i][4 * half] * scale, acc[i][4 * half + 1] * scale,
                                                               acc[i][4 * half + 2] * scale, acc[i][4 * half + 3] * scale);
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (col + j < n)
                        dst[j] = acc[i][4 * half + j] * scale;
            }
        }
    }
}

