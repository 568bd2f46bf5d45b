// race-suite: race-free
// memory: shared
// between: lanes-of-a-warp
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// The warp rotation ordered by a 32-lane tile's sync().
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void sh_tile32_rotate_with_tile_sync(const float* x, float* y)
{
    __shared__ float buf[128];
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    int i = blockIdx.x * 128 + threadIdx.x;
    buf[w * 32 + lane] = x[i];
    tile.sync();
    y[i] = buf[w * 32 + (lane + 1) % 32];
}
