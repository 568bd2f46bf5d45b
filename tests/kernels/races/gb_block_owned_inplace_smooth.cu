// race-suite: race-free
// memory: global
// between: blocks
// launch: block=128 grid=4
// args: float32[512]
// An in-place smoothing that reads neighbours through shared memory only within the block, so each
// block touches only its own elements.
extern "C" __global__ void gb_block_owned_inplace_smooth(float* x)
{
    __shared__ float tile[128];
    int i = blockIdx.x * 128 + threadIdx.x;
    tile[threadIdx.x] = x[i];
    __syncthreads();
    x[i] = 0.5f * (tile[threadIdx.x] + tile[(threadIdx.x + 1) % 128]);
}
