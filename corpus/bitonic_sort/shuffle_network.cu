// Each thread keeps its element in a register. Steps whose partner is in the same warp (j < 32)
// exchange through shuffles with no barrier; only the longer-distance steps go through shared memory.
__device__ __forceinline__ float keep(float mine, float other, int i, int j, int k)
{
    bool lower = (i & j) == 0, ascending = (i & k) == 0;
    return lower == ascending ? fminf(mine, other) : fmaxf(mine, other);
}

extern "C" __global__ void bitonic_sort(const float *x, float *out, int rows, int len)
{
    __shared__ float v[1024];
    int i = threadIdx.x;
    float mine = x[(long)blockIdx.x * len + i];
    for (int k = 2; k <= len; k *= 2)
        for (int j = k / 2; j > 0; j /= 2) {
            float other;
            if (j >= 32) {
                v[i] = mine;
                __syncthreads();
                other = v[i ^ j];
                __syncthreads();
            } else {
                other = __shfl_xor_sync(0xffffffffu, mine, j);
            }
            mine = keep(mine, other, i, j, k);
        }
    out[(long)blockIdx.x * len + i] = mine;
}
