// race-suite: race-free
// memory: global
// between: blocks
// launch: block=128 grid=4x2
// args: float32[1024], float32[1024]:zeros
// A 2-D grid whose blocks each own one tile of the output.
extern "C" __global__ void gb_2d_disjoint_tiles(const float* x, float* out)
{
    int tile = blockIdx.y * 4 + blockIdx.x;
    out[tile * 128 + threadIdx.x] = 2.0f * x[tile * 128 + threadIdx.x];
}
