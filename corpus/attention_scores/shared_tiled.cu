// 16 x 16 tiles of q rows and k rows are loaded coalesced (along dim) into shared memory; the
// k tile is padded so that reading it by column is conflict-free.
#define T 16

extern "C" __global__ void attention_scores(const float *q, const float *k, float *scores, float scale, int seq, int dim)
{
    __shared__ float qs[T][T + 1], ks[T][T + 1];
    const float *qb = q + (long)blockIdx.z * seq * dim, *kb = k + (long)blockIdx.z * seq * dim;
    int i = blockIdx.y * T + threadIdx.y, j = blockIdx.x * T + threadIdx.x;
    int krow = blockIdx.x * T + threadIdx.y;
    float acc = 0.0f;
    for (int t0 = 0; t0 < dim; t0 += T) {
        int t = t0 + threadIdx.x;
        qs[threadIdx.y][threadIdx.x] = i < seq && t < dim ? qb[(long)i * dim + t] : 0.0f;
        ks[threadIdx.y][threadIdx.x] = krow < seq && t < dim ? kb[(long)krow * dim + t] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int u = 0; u < T; u++)
            acc += qs[threadIdx.y][u] * ks[threadIdx.x][u];
        __syncthreads();
    }
    if (i < seq && j < seq)
        scores[((long)blockIdx.z * seq + i) * seq + j] = acc * scale;
}
