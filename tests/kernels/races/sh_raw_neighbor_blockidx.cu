// race-suite: race
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[512]:zeros
// Each block stages its tile at an offset that depends on blockIdx; thread t then reads the slot
// thread t+1 stored, with no barrier in between. Without a grid the offset was unknown and the
// race hidden.
extern "C" __global__ void sh_raw_neighbor_blockidx(const float* x, float* y)
{
    __shared__ float tile[256];
    int base = (blockIdx.x % 2) * 128;
    int i = blockIdx.x * 128 + threadIdx.x;
    tile[base + threadIdx.x] = x[i];                        // RACE
    y[i] = tile[base + (threadIdx.x + 1) % 128];            // RACE
}
