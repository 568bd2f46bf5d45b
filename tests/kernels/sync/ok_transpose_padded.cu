// Tiled transpose through a padded tile, with the barrier between filling and reading.
extern "C" __global__ void ok_transpose_padded(const float* in, float* out, int width)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    int ox = blockIdx.y * 32 + threadIdx.x;
    int oy = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[(oy + j) * width + ox] = tile[threadIdx.x][threadIdx.y + j];
}
