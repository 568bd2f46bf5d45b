// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4 smem=512
// args: float32[512], float32[512]:zeros
// Dynamic shared memory read one warp ahead after a barrier.
extern "C" __global__ void sh_dynamic_extern_with_barrier(const float* x, float* y)
{
    extern __shared__ float dyn[];
    int i = blockIdx.x * 128 + threadIdx.x;
    dyn[threadIdx.x] = x[i];
    __syncthreads();
    y[i] = dyn[(threadIdx.x + 32) % 128];
}
