// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// A block reversal ordered by the free function cg::sync(block).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void sh_reverse_cg_sync_free_function(const float* x, float* y)
{
    __shared__ float tile[128];
    cg::thread_block block = cg::this_thread_block();
    int i = blockIdx.x * 128 + threadIdx.x;
    tile[threadIdx.x] = x[i];
    cg::sync(block);
    y[i] = tile[127 - threadIdx.x];
}
