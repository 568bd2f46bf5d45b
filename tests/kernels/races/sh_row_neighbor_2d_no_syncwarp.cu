// race-suite: race
// memory: shared
// between: lanes-of-a-warp
// launch: block=32x4 grid=4
// args: float32[512], float32[512]:zeros
// Each row of a 32x4 block is one warp; a lane reads its right neighbour's slot with no
// __syncwarp.
extern "C" __global__ void sh_row_neighbor_2d_no_syncwarp(const float* x, float* y)
{
    __shared__ float rows[4][32];
    int i = (blockIdx.x * 4 + threadIdx.y) * 32 + threadIdx.x;
    rows[threadIdx.y][threadIdx.x] = x[i];                  // RACE
    y[i] = rows[threadIdx.y][(threadIdx.x + 1) % 32];       // RACE
}
