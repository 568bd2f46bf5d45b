// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// A block reversal ordered by block.sync().
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void sh_reverse_block_sync_method(const float* x, float* y)
{
    __shared__ float tile[128];
    cg::thread_block block = cg::this_thread_block();
    int i = blockIdx.x * 128 + threadIdx.x;
    tile[threadIdx.x] = x[i];
    block.sync();
    y[i] = tile[127 - threadIdx.x];
}
