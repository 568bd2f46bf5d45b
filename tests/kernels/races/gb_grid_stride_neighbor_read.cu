// race-suite: race-free
// memory: global
// between: blocks
// launch: block=128 grid=4
// args: float32[2048], float32[2048]:zeros, int32=2048
// A grid-stride loop that reads neighbours of a read-only input and writes a separate output.
extern "C" __global__ void gb_grid_stride_neighbor_read(const float* x, float* y, int n)
{
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += blockDim.x * gridDim.x)
        y[j] = x[j] + x[(j + 1) % n];
}
