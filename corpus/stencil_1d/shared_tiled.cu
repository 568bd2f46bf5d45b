// The block loads its 256 inputs plus a 4-element halo on each side into shared memory once,
// and the weights into registers, then every output reads only shared memory.
#define RADIUS 4
#define BLOCK 256

extern "C" __global__ void stencil_1d(const float *x, const float *w, float *out, int n)
{
    __shared__ float tile[BLOCK + 2 * RADIUS];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    tile[threadIdx.x + RADIUS] = i < n ? x[i] : 0.0f;
    if (threadIdx.x < RADIUS) {
        int left = i - RADIUS, right = i + BLOCK;
        tile[threadIdx.x] = left >= 0 && left < n ? x[left] : 0.0f;
        tile[threadIdx.x + BLOCK + RADIUS] = right < n ? x[right] : 0.0f;
    }
    float weights[2 * RADIUS + 1];
#pragma unroll
    for (int k = 0; k <= 2 * RADIUS; k++)
        weights[k] = w[k];
    __syncthreads();
    if (i >= n)
        return;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k <= 2 * RADIUS; k++)
        acc += weights[k] * tile[threadIdx.x + k];
    out[i] = acc;
}
