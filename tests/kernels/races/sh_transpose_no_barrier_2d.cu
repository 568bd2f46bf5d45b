// race-suite: race
// memory: shared
// between: threads-of-a-block
// launch: block=16x16 grid=2x2
// args: float32[1024], float32[1024]:zeros
// A tile transpose that reads the transposed element before the thread that stores it has been
// waited for.
extern "C" __global__ void sh_transpose_no_barrier_2d(const float* in, float* out)
{
    __shared__ float tile[16][17];
    int x0 = blockIdx.x * 16, y0 = blockIdx.y * 16;
    tile[threadIdx.y][threadIdx.x] = in[(y0 + threadIdx.y) * 32 + x0 + threadIdx.x];    // RACE
    out[(x0 + threadIdx.y) * 32 + y0 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];    // RACE
}
