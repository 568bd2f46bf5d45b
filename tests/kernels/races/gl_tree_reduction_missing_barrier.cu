// race-suite: race
// memory: global
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[4]:zeros
// An in-place tree reduction over the block's segment of global memory, with no barrier between
// steps.
extern "C" __global__ void gl_tree_reduction_missing_barrier(float* x, float* y)
{
    int t = threadIdx.x, base = blockIdx.x * 128;
    for (int s = 64; s > 0; s /= 2) {
        if (t < s) x[base + t] += x[base + t + s];        // RACE
    }
    if (t == 0) y[blockIdx.x] = x[base];
}
