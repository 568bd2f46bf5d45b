// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// sh_raw_neighbor_blockidx with the barrier in place.
extern "C" __global__ void sh_neighbor_with_barrier_blockidx(const float* x, float* y)
{
    __shared__ float tile[256];
    int base = (blockIdx.x % 2) * 128;
    int i = blockIdx.x * 128 + threadIdx.x;
    tile[base + threadIdx.x] = x[i];
    __syncthreads();
    y[i] = tile[base + (threadIdx.x + 1) % 128];
}
