// race-suite: race
// memory: global
// between: blocks
// launch: block=128 grid=4 cooperative=yes
// args: float32[512], float32[512]:zeros, float32[512]:zeros, int32=512
// The grid-wide barrier comes before the first phase instead of between the phases.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void cg_grid_sync_wrong_place(const float* x, float* buf, float* y, int n)
{
    cg::grid_group grid = cg::this_grid();
    int i = blockIdx.x * 128 + threadIdx.x;
    grid.sync();
    buf[i] = 2.0f * x[i];                                 // RACE
    y[i] = buf[(i + 128) % n];                            // RACE
}
