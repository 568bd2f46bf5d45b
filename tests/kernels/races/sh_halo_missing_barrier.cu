// race-suite: race
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// A three-point stencil reads its neighbours' staged values with no barrier after staging.
extern "C" __global__ void sh_halo_missing_barrier(const float* x, float* y)
{
    __shared__ float tile[130];
    int i = blockIdx.x * 128 + threadIdx.x;
    tile[threadIdx.x + 1] = x[i];                                                        // RACE
    if (threadIdx.x == 0) tile[0] = blockIdx.x > 0 ? x[i - 1] : 0.0f;
    if (threadIdx.x == 127) tile[129] = blockIdx.x + 1 < gridDim.x ? x[i + 1] : 0.0f;
    y[i] = tile[threadIdx.x] + tile[threadIdx.x + 1] + tile[threadIdx.x + 2];           // RACE
}
