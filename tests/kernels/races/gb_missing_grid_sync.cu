// race-suite: race
// memory: global
// between: blocks
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros, float32[512]:zeros, int32=512
// A two-phase kernel: phase two reads the element the next block stored in phase one, with only a
// block barrier in between.
extern "C" __global__ void gb_missing_grid_sync(const float* x, float* buf, float* y, int n)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    buf[i] = 2.0f * x[i];                                 // RACE
    __syncthreads();
    y[i] = buf[(i + 128) % n];                            // RACE
}
