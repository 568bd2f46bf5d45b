// race-suite: race
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// A 32-lane tile's sync() orders one warp, but the exchange crosses warps.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void cg_tile_sync_is_not_a_block_barrier(const float* x, float* y)
{
    __shared__ float buf[128];
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    int i = blockIdx.x * 128 + threadIdx.x;
    buf[threadIdx.x] = x[i];                              // RACE
    tile.sync();
    y[i] = buf[(threadIdx.x + 32) % 128];                 // RACE
}
