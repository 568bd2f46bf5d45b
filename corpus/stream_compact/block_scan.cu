// One block per row, 256 entries at a time: an exclusive scan of the keep flags in shared memory
// gives every kept entry its output slot; a running offset carries across tiles.
extern "C" __global__ void stream_compact(const float *x, float *out, int *count, int rows, int cols)
{
    __shared__ int scan[2][256];
    __shared__ int offset;
    const float *in_row = x + (long)blockIdx.x * cols;
    float *out_row = out + (long)blockIdx.x * cols;
    if (threadIdx.x == 0)
        offset = 0;
    for (int base = 0; base < cols; base += 256) {
        int c = base + threadIdx.x;
        float v = c < cols ? in_row[c] : 0.0f;
        int flag = v > 0, current = 0;
        scan[0][threadIdx.x] = flag;
        __syncthreads();
        for (int step = 1; step < 256; step *= 2) {
            int s = scan[current][threadIdx.x];
            if (threadIdx.x >= step)
                s += scan[current][threadIdx.x - step];
            scan[1 - current][threadIdx.x] = s;
            current = 1 - current;
            __syncthreads();
        }
        int inclusive = scan[current][threadIdx.x];
        if (flag)
            out_row[offset + inclusive - 1] = v;
        __syncthreads();
        if (threadIdx.x == 255)
            offset += inclusive;
        __syncthreads();
    }
    for (int c = offset + threadIdx.x; c < cols; c += 256)
        out_row[c] = 0.0f;
    if (threadIdx.x == 0)
        count[blockIdx.x] = offset;
}

/* kernelscope:plan
[[launch]]
kernel = "stream_compact"
grid = ["rows"]
block = ["256"]
args = ["x", "out", "count", "rows", "cols"]
*/
