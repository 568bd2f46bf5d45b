// race-suite: race-free
// memory: shared
// between: lanes-of-a-warp
// launch: block=32 grid=4
// args: float32[128], float32[128]:zeros
// In a one-warp block lane 0 alone stores the scalar, and __syncwarp orders it before the other
// lanes read it.
extern "C" __global__ void sh_one_warp_lane0_stores(const float* x, float* y)
{
    __shared__ float first;
    int i = blockIdx.x * 32 + threadIdx.x;
    if (threadIdx.x == 0) first = x[i];
    __syncwarp();
    y[i] = first;
}
