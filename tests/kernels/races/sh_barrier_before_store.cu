// race-suite: race
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// The barrier sits before the store instead of between the store and the load.
extern "C" __global__ void sh_barrier_before_store(const float* x, float* y)
{
    __shared__ float tile[128];
    int i = blockIdx.x * 128 + threadIdx.x;
    __syncthreads();
    tile[threadIdx.x] = x[i];                               // RACE
    y[i] = tile[127 - threadIdx.x];                         // RACE
}
