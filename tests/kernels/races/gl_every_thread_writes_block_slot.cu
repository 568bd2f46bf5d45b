// race-suite: race
// memory: global
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[4]:zeros
// Every thread of a block stores its own value into the block's one output slot.
extern "C" __global__ void gl_every_thread_writes_block_slot(const float* x, float* out)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    out[blockIdx.x] = x[i];                               // RACE
}
