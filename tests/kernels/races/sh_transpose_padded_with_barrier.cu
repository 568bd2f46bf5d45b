// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=16x16 grid=2x2
// args: float32[1024], float32[1024]:zeros
// The tile transpose with its barrier.
extern "C" __global__ void sh_transpose_padded_with_barrier(const float* in, float* out)
{
    __shared__ float tile[16][17];
    int x0 = blockIdx.x * 16, y0 = blockIdx.y * 16;
    tile[threadIdx.y][threadIdx.x] = in[(y0 + threadIdx.y) * 32 + x0 + threadIdx.x];
    __syncthreads();
    out[(x0 + threadIdx.y) * 32 + y0 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
