// race-suite: race
// memory: global
// between: blocks
// launch: block=128 grid=4
// args: float32[512], float32[1]:zeros
// Every block reduces its segment and stores its sum into the same single output.
extern "C" __global__ void gb_every_block_writes_total(const float* x, float* total)
{
    __shared__ float part[128];
    int t = threadIdx.x;
    part[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
    for (int s = 64; s > 0; s /= 2) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0) *total = part[0];                         // RACE
}
