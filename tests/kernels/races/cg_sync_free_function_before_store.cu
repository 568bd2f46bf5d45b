// race-suite: race
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// cg::sync(block) placed before the store instead of between the store and the load.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void cg_sync_free_function_before_store(const float* x, float* y)
{
    __shared__ float tile[128];
    cg::thread_block block = cg::this_thread_block();
    int i = blockIdx.x * 128 + threadIdx.x;
    cg::sync(block);
    tile[threadIdx.x] = x[i];                             // RACE
    y[i] = tile[127 - threadIdx.x];                       // RACE
}
