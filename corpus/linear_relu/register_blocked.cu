// 64 x 64 outputs per block of 256 threads, 4 x 4 per thread in registers, with x and weight tiles
// stored transposed in shared memory; bias and ReLU fused into the store.
#define BM 64
#define BK 16

extern "C" __global__ void linear_relu(const float *x, const float *weight, const float *bias, float *out,
                                       int batch, int fin, int fout)
{
    __shared__ float xs[BK][BM + 4], ws[BK][BM + 4];
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BM;
    float acc[4][4] = {};
    for (int t0 = 0; t0 < fin; t0 += BK) {
        for (int e = threadIdx.x; e < BM * BK; e += 256) {
            int r = e / BK, t = e % BK;
            xs[t][r] = row0 + r < batch && t0 + t < fin ? x[(long)(row0 + r) * fin + t0 + t] : 0.0f;
            ws[t][r] = col0 + r < fout && t0 + t < fin ? weight[(long)(col0 + r) * fin + t0 + t] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int t = 0; t < BK; t++) {
            float xv[4], wv[4];
#pragma unroll
            for (int u = 0; u < 4; u++) {
                xv[u] = xs[t][ty * 4 + u];
                wv[u] = ws[t][tx + 16 * u];
            }
#pragma unroll
            for (int a = 0; a < 4; a++)
#pragma unroll
                for (int b = 0; b < 4; b++)
                    acc[a][b] = fmaf(xv[a], wv[b], acc[a][b]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int a = 0; a < 4; a++)
#pragma unroll
        for (int b = 0; b < 4; b++) {
            int i = row0 + ty * 4 + a, j = col0 + tx + 16 * b;
            if (i < batch && j < fout)
                out[(long)i * fout + j] = fmaxf(acc[a][b] + bias[j], 0.0f);
        }
}

/* kernelscope:plan
[[launch]]
kernel = "linear_relu"
grid = ["ceil_div(fout, 64)", "ceil_div(batch, 64)"]
block = ["256"]
args = ["x", "weight", "bias", "out", "batch", "fin", "fout"]
*/
