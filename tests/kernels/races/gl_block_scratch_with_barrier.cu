// race-suite: race-free
// memory: global
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros, float32[512]:zeros
// The global scratch exchange with a barrier: each block reads only its own segment.
extern "C" __global__ void gl_block_scratch_with_barrier(const float* x, float* scratch, float* y)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    scratch[i] = 2.0f * x[i];
    __syncthreads();
    y[i] = scratch[blockIdx.x * 128 + (threadIdx.x + 1) % 128];
}
