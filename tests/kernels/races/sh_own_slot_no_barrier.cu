// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// Every thread reads back only its own slot: no barrier is needed.
extern "C" __global__ void sh_own_slot_no_barrier(const float* x, float* y)
{
    __shared__ float buf[128];
    int i = blockIdx.x * 128 + threadIdx.x;
    buf[threadIdx.x] = 2.0f * x[i];
    y[i] = buf[threadIdx.x] + 1.0f;
}
