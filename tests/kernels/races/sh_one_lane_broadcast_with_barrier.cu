// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[4], float32[512]:zeros
// Thread 0 publishes a shared scalar and the block waits for it.
extern "C" __global__ void sh_one_lane_broadcast_with_barrier(const float* x, float* y)
{
    __shared__ float scale;
    if (threadIdx.x == 0) scale = x[blockIdx.x];
    __syncthreads();
    y[blockIdx.x * 128 + threadIdx.x] = scale * 2.0f;
}
