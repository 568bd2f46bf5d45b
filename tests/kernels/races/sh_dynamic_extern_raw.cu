// race-suite: race
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4 smem=512
// args: float32[512], float32[512]:zeros
// Dynamic shared memory read one warp ahead with no barrier.
extern "C" __global__ void sh_dynamic_extern_raw(const float* x, float* y)
{
    extern __shared__ float dyn[];
    int i = blockIdx.x * 128 + threadIdx.x;
    dyn[threadIdx.x] = x[i];                                // RACE
    y[i] = dyn[(threadIdx.x + 32) % 128];                   // RACE
}
