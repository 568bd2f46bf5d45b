// race-suite: race
// memory: global
// between: blocks
// launch: block=256 grid=4
// args: float32[1024], float32[640]:zeros
// Blocks of 256 threads advance by 128 elements, so neighbouring blocks store to the same 128
// elements.
extern "C" __global__ void gb_overlapping_tiles(const float* x, float* out)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    out[i] = x[blockIdx.x * 256 + threadIdx.x];           // RACE
}
