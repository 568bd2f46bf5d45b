/* kernelscope:plan
# One block per row, each thread scanning 8 consecutive elements held in registers (16-byte loads
# when rows are 16-byte aligned), then a block-wide scan of the threads' totals: the row is read
# once in wide loads instead of a warp walking it 32 elements at a time.
[[launch]]
kernel = "row_scan_block"
grid = ["rows"]
block = ["min(1024, 32 * ceil_div(cols, 256))"]
args = ["x", "out", "rows", "cols"]
*/
#define PER_THREAD 8

// Inclusive scan of one int per thread over the block; `carry` (the tile's offset) is added.
__device__ int block_scan(int v, int *warp_totals)
{
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 1; offset < 32; offset *= 2) {
        int below = __shfl_up_sync(0xffffffffu, v, offset);
        if (lane >= offset)
            v += below;
    }
    if (lane == 31)
        warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int w = lane < blockDim.x / 32 ? warp_totals[lane] : 0;
        for (int offset = 1; offset < 32; offset *= 2) {
            int below = __shfl_up_sync(0xffffffffu, w, offset);
            if (lane >= offset)
                w += below;
        }
        warp_totals[lane] = w;            // inclusive totals of the warps
    }
    __syncthreads();
    int before = warp > 0 ? warp_totals[warp - 1] : 0;
    return v + before;
}

extern "C" __global__ void row_scan_block(const int *__restrict__ x, int *__restrict__ out, int rows, int cols)
{
    __shared__ int warp_totals[32];
    __shared__ int tile_total;
    const int *in_row = x + (long)blockIdx.x * cols;
    int *out_row = out + (long)blockIdx.x * cols;
    bool aligned = cols % 4 == 0;
    int carry = 0;
    for (int base = 0; base < cols; base += PER_THREAD * blockDim.x) {
        int first = base + threadIdx.x * PER_THREAD;
        int v[PER_THREAD];
        if (aligned && first + PER_THREAD <= cols) {
            int4 a = __ldg(reinterpret_cast<const int4 *>(in_row + first));
            int4 b = __ldg(reinterpret_cast<const int4 *>(in_row + first + 4));
            v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
            v[4] = b.x; v[5] = b.y; v[6] = b.z; v[7] = b.w;
        } else {
#pragma unroll
            for (int k = 0; k < PER_THREAD; k++)
                v[k] = first + k < cols ? in_row[first + k] : 0;
        }
#pragma unroll
        for (int k = 1; k < PER_THREAD; k++)
            v[k] += v[k - 1];
        int inclusive = block_scan(v[PER_THREAD - 1], warp_totals);
        int offset = carry + inclusive - v[PER_THREAD - 1];
        if (threadIdx.x == blockDim.x - 1)
            tile_total = inclusive;
#pragma unroll
        for (int k = 0; k < PER_THREAD; k++)
            v[k] += offset;
        if (aligned && first + PER_THREAD <= cols) {
            reinterpret_cast<int4 *>(out_row + first)[0] = make_int4(v[0], v[1], v[2], v[3]);
            reinterpret_cast<int4 *>(out_row + first + 4)[0] = make_int4(v[4], v[5], v[6], v[7]);
        } else {
#pragma unroll
            for (int k = 0; k < PER_THREAD; k++)
                if (first + k < cols)
                    out_row[first + k] = v[k];
        }
        __syncthreads();
        carry += tile_total;
        __syncthreads();                  // warp_totals and tile_total are rewritten by the next tile
    }
}
