// race-suite: race-free
// memory: global
// between: blocks
// launch: block=128 grid=4 cooperative=yes
// args: float32[512], float32[512]:zeros, float32[512]:zeros, int32=512
// The two-phase kernel with a grid-wide barrier (this_grid().sync()) between the phases, launched
// cooperatively.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gb_cooperative_grid_sync(const float* x, float* buf, float* y, int n)
{
    cg::grid_group grid = cg::this_grid();
    int i = blockIdx.x * 128 + threadIdx.x;
    buf[i] = 2.0f * x[i];
    grid.sync();
    y[i] = buf[(i + 128) % n];
}
