// 16 x 16 tiles of x rows and weight rows are loaded coalesced into shared memory (the weight
// tile padded against bank conflicts); bias and ReLU are applied on the way out.
#define T 16

extern "C" __global__ void linear_relu(const float *x, const float *weight, const float *bias, float *out,
                                       int batch, int fin, int fout)
{
    __shared__ float xs[T][T + 1], ws[T][T + 1];
    int i = blockIdx.y * T + threadIdx.y, j = blockIdx.x * T + threadIdx.x;
    int wrow = blockIdx.x * T + threadIdx.y;
    float acc = 0.0f;
    for (int t0 = 0; t0 < fin; t0 += T) {
        int t = t0 + threadIdx.x;
        xs[threadIdx.y][threadIdx.x] = i < batch && t < fin ? x[(long)i * fin + t] : 0.0f;
        ws[threadIdx.y][threadIdx.x] = wrow < fout && t < fin ? weight[(long)wrow * fin + t] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int u = 0; u < T; u++)
            acc += xs[threadIdx.y][u] * ws[threadIdx.x][u];
        __syncthreads();
    }
    if (i < batch && j < fout)
        out[(long)i * fout + j] = fmaxf(acc + bias[j], 0.0f);
}
