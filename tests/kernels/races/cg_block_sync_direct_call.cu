// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// cg::this_thread_block().sync() called on the temporary orders the whole block.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void cg_block_sync_direct_call(const float* x, float* y)
{
    __shared__ float tile[128];
    int i = blockIdx.x * 128 + threadIdx.x;
    tile[threadIdx.x] = x[i];
    cg::this_thread_block().sync();
    y[i] = tile[(threadIdx.x + 64) % 128];
}
