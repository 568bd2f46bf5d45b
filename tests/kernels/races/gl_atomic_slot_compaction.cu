// race-suite: race-free
// memory: global
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros, int32[1]:zeros
// atomicAdd hands every thread a distinct output slot.
extern "C" __global__ void gl_atomic_slot_compaction(const float* x, float* out, int* count)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    int slot = atomicAdd(count, 1);
    out[slot] = x[i];
}
