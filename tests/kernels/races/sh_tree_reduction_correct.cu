// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[4]:zeros
// The tree reduction with a barrier after every step.
extern "C" __global__ void sh_tree_reduction_correct(const float* x, float* y)
{
    __shared__ float part[128];
    int t = threadIdx.x;
    part[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
    for (int s = 64; s > 0; s /= 2) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0) y[blockIdx.x] = part[0];
}
