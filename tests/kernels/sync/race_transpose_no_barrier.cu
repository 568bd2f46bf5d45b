// Tiled transpose that reads the tile back transposed without waiting for the other rows.
extern "C" __global__ void race_transpose_no_barrier(const float* in, float* out, int width)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    int ox = blockIdx.y * 32 + threadIdx.x;
    int oy = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[(oy + j) * width + ox] = tile[threadIdx.x][threadIdx.y + j];
}
