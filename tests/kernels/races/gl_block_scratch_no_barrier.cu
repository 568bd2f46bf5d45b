// race-suite: race
// memory: global
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros, float32[512]:zeros
// Threads of a block exchange values through a global scratch array with no barrier.
extern "C" __global__ void gl_block_scratch_no_barrier(const float* x, float* scratch, float* y)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    scratch[i] = 2.0f * x[i];                                     // RACE
    y[i] = scratch[blockIdx.x * 128 + (threadIdx.x + 1) % 128];   // RACE
}
