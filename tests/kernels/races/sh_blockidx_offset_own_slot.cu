// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// A blockIdx-dependent offset into shared memory, but every thread reads back its own slot.
extern "C" __global__ void sh_blockidx_offset_own_slot(const float* x, float* y)
{
    __shared__ float tile[256];
    int base = (blockIdx.x % 2) * 128;
    int i = blockIdx.x * 128 + threadIdx.x;
    tile[base + threadIdx.x] = x[i];
    y[i] = 3.0f * tile[base + threadIdx.x];
}
