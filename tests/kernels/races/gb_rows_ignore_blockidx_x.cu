// race-suite: race
// memory: global
// between: blocks
// launch: block=128 grid=4x2
// args: float32[1024], float32[256]:zeros
// A 2-D grid whose blocks along x all store to the row that only blockIdx.y selects.
extern "C" __global__ void gb_rows_ignore_blockidx_x(const float* x, float* out)
{
    int in = (blockIdx.y * gridDim.x + blockIdx.x) * 128 + threadIdx.x;
    out[blockIdx.y * 128 + threadIdx.x] = x[in];          // RACE
}
