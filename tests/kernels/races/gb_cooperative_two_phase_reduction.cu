// race-suite: race-free
// memory: global
// between: blocks
// launch: block=128 grid=4 cooperative=yes
// args: float32[512], float32[4]:zeros, float32[1]:zeros
// Blocks publish partial sums, a grid-wide barrier follows, then block 0 adds them up.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gb_cooperative_two_phase_reduction(const float* x, float* partial, float* total)
{
    __shared__ float part[128];
    cg::grid_group grid = cg::this_grid();
    int t = threadIdx.x;
    part[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
    for (int s = 64; s > 0; s /= 2) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = part[0];
    grid.sync();
    if (blockIdx.x == 0 && t == 0) {
        float sum = 0.0f;
        for (int b = 0; b < 4; b++) sum += partial[b];
        *total = sum;
    }
}
