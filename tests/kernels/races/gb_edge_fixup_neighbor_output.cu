// race-suite: race
// memory: global
// between: blocks
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// Thread 0 of each block adjusts the last output of the previous block, which that block stores.
extern "C" __global__ void gb_edge_fixup_neighbor_output(const float* x, float* out)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    out[i] = x[i];                                        // RACE
    __syncthreads();
    if (threadIdx.x == 0 && blockIdx.x > 0) out[i - 1] += 1.0f;   // RACE
}
