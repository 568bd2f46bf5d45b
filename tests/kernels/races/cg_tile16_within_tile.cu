// race-suite: race-free
// memory: shared
// between: lanes-of-a-warp
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// A 16-lane tile exchanges values between its own lanes after its sync().
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void cg_tile16_within_tile(const float* x, float* y)
{
    __shared__ float buf[128];
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    int i = blockIdx.x * 128 + threadIdx.x;
    buf[threadIdx.x] = x[i];
    tile.sync();
    y[i] = buf[threadIdx.x ^ 1];
}
