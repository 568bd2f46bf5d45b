// race-suite: race
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[2048], float32[512]:zeros, int32=4
// The store of tile k+1 is not ordered after other threads' loads of tile k: one barrier per
// iteration is not enough.
extern "C" __global__ void sh_war_tile_loop(const float* x, float* y, int tiles)
{
    __shared__ float tile[128];
    float acc = 0.0f;
    for (int k = 0; k < tiles; k++) {
        tile[threadIdx.x] = x[(blockIdx.x * tiles + k) * 128 + threadIdx.x];   // RACE
        __syncthreads();
        acc += tile[127 - threadIdx.x];                                        // RACE
    }
    y[blockIdx.x * 128 + threadIdx.x] = acc;
}
