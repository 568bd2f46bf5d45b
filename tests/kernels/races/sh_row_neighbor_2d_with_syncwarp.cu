// race-suite: race-free
// memory: shared
// between: lanes-of-a-warp
// launch: block=32x4 grid=4
// args: float32[512], float32[512]:zeros
// The row-neighbour exchange of a 32x4 block with __syncwarp: each row is one warp.
extern "C" __global__ void sh_row_neighbor_2d_with_syncwarp(const float* x, float* y)
{
    __shared__ float rows[4][32];
    int i = (blockIdx.x * 4 + threadIdx.y) * 32 + threadIdx.x;
    rows[threadIdx.y][threadIdx.x] = x[i];
    __syncwarp();
    y[i] = rows[threadIdx.y][(threadIdx.x + 1) % 32];
}
