// race-suite: race-free
// memory: global
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[4]:zeros
// The in-place global tree reduction with a barrier after every step.
extern "C" __global__ void gl_tree_reduction_with_barrier(float* x, float* y)
{
    int t = threadIdx.x, base = blockIdx.x * 128;
    for (int s = 64; s > 0; s /= 2) {
        if (t < s) x[base + t] += x[base + t + s];
        __syncthreads();
    }
    if (t == 0) y[blockIdx.x] = x[base];
}
