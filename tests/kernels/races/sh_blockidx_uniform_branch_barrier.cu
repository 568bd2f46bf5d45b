// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// A barrier under a condition on blockIdx: the same for every thread of a block, so the even
// blocks' exchange is ordered.
extern "C" __global__ void sh_blockidx_uniform_branch_barrier(const float* x, float* y)
{
    __shared__ float tile[128];
    int i = blockIdx.x * 128 + threadIdx.x;
    if (blockIdx.x % 2 == 0) {
        tile[threadIdx.x] = x[i];
        __syncthreads();
        y[i] = tile[127 - threadIdx.x];
    } else {
        y[i] = x[i];
    }
}
