// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[2048], float32[512]:zeros, int32=4
// The tile loop with a second barrier before the next tile is stored.
extern "C" __global__ void sh_tile_loop_two_barriers(const float* x, float* y, int tiles)
{
    __shared__ float tile[128];
    float acc = 0.0f;
    for (int k = 0; k < tiles; k++) {
        tile[threadIdx.x] = x[(blockIdx.x * tiles + k) * 128 + threadIdx.x];
        __syncthreads();
        acc += tile[127 - threadIdx.x];
        __syncthreads();
    }
    y[blockIdx.x * 128 + threadIdx.x] = acc;
}
