// One block per row, a private shared histogram per warp so that atomics of different warps never
// collide, and 16-byte loads of four values when the row is 16-byte aligned.
extern "C" __global__ void row_histogram(const int *x, int *hist, int rows, int cols)
{
    __shared__ int counts[8][256];
    int warp = threadIdx.x / 32;
    for (int w = 0; w < 8; w++)
        counts[w][threadIdx.x] = 0;
    __syncthreads();
    const int *row = x + (long)blockIdx.x * cols;
    int *mine = counts[warp];
    if (cols % 4 == 0) {
        const int4 *quads = reinterpret_cast<const int4 *>(row);
        for (int q = threadIdx.x; q < cols / 4; q += blockDim.x) {
            int4 v = quads[q];
            atomicAdd(&mine[v.x], 1);
            atomicAdd(&mine[v.y], 1);
            atomicAdd(&mine[v.z], 1);
            atomicAdd(&mine[v.w], 1);
        }
    } else {
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
            atomicAdd(&mine[row[c]], 1);
    }
    __syncthreads();
    int total = 0;
    for (int w = 0; w < 8; w++)
        total += counts[w][threadIdx.x];
    hist[(long)blockIdx.x * 256 + threadIdx.x] = total;
}
