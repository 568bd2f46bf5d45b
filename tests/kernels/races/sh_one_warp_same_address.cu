// race-suite: race
// memory: shared
// between: lanes-of-a-warp
// launch: block=32 grid=4
// args: float32[128], float32[128]:zeros
// In a one-warp block every lane stores its own value to one shared scalar in the same statement;
// no __syncwarp can order that.
extern "C" __global__ void sh_one_warp_same_address(const float* x, float* y)
{
    __shared__ float last;
    int i = blockIdx.x * 32 + threadIdx.x;
    last = x[i];                                            // RACE
    __syncwarp();
    y[i] = last;
}
