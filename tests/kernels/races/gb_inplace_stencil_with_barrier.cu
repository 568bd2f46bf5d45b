// race-suite: race
// memory: global
// between: blocks
// launch: block=128 grid=4
// args: float32[512], int32=512
// An in-place stencil that reads its neighbours before a barrier and writes after it: ordered
// inside a block, but at a block's edge the neighbour belongs to another block.
extern "C" __global__ void gb_inplace_stencil_with_barrier(float* x, int n)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    float left = i > 0 ? x[i - 1] : 0.0f;                 // RACE
    float right = i + 1 < n ? x[i + 1] : 0.0f;            // RACE
    __syncthreads();
    x[i] = (left + x[i] + right) / 3.0f;                  // RACE
}
