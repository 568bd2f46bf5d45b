// race-suite: race
// memory: global
// between: threads-of-a-block
// launch: block=128 grid=4
// args: int32[1]:zeros, float32[512]:zeros
// A counter updated atomically is read with a plain load while other threads still update it.
extern "C" __global__ void gl_atomic_counter_plain_read(int* count, float* y)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    atomicAdd(&count[0], 1);                              // RACE
    y[i] = (float)count[0];                               // RACE
}
