// Behaviour controlled by -D on the command line: the tile size defaults
// to 16, and an extra kernel exists only when WITH_BIAS is defined.
#ifndef TILE
#define TILE 16
#endif

__global__ void tile_copy(const float* in, float* out, int ld)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * ld + x];
    __syncthreads();
    out[y * ld + x] = tile[threadIdx.y][threadIdx.x];
}

#ifdef WITH_BIAS
__global__ void add_bias(float* x, const float* bias, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += bias[i % TILE];
}
#endif
