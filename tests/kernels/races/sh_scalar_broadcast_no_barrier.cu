// race-suite: race
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[4], float32[512]:zeros
// Thread 0 publishes a shared scalar that every thread reads without waiting for it.
extern "C" __global__ void sh_scalar_broadcast_no_barrier(const float* x, float* y)
{
    __shared__ float scale;
    if (threadIdx.x == 0) scale = x[blockIdx.x];            // RACE
    y[blockIdx.x * 128 + threadIdx.x] = scale * 2.0f;       // RACE
}
