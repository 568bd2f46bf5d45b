// race-suite: race-free
// memory: global
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[4]:zeros
// Only thread 0 of each block stores the block's output slot.
extern "C" __global__ void gl_one_thread_writes_block_slot(const float* x, float* out)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    if (threadIdx.x == 0) out[blockIdx.x] = x[i];
}
