// race-suite: race
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[4]:zeros
// A tree reduction without a barrier between its steps: step s reads part[t + s] that another warp
// updates in the step before.
extern "C" __global__ void sh_reduction_missing_barrier(const float* x, float* y)
{
    __shared__ float part[128];
    int t = threadIdx.x;
    part[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
    for (int s = 64; s > 0; s /= 2) {
        if (t < s) part[t] += part[t + s];                  // RACE
    }
    if (t == 0) y[blockIdx.x] = part[0];
}
