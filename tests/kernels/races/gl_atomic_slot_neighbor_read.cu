// race-suite: race
// memory: global
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[1024]:zeros, int32[1]:zeros, float32[512]:zeros
// atomicAdd hands each thread its own slot, but the thread then reads the neighbouring slot, which
// another thread fills.
extern "C" __global__ void gl_atomic_slot_neighbor_read(const float* x, float* buf, int* count, float* y)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    int slot = atomicAdd(count, 1);
    buf[slot] = x[i];                                     // RACE
    y[i] = buf[slot ^ 1];                                 // RACE
}
