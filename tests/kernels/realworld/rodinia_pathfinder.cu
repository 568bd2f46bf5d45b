// Models Rodinia's pathfinder (dynamic programming over a grid, minimum-cost path from the top row
// to the bottom row), written here from its description: each block owns a column strip with a
// halo, keeps the previous row in shared memory and advances `iteration` rows per launch (the
// pyramid), shrinking the valid region by one column per row on each side.
#define BLOCK_SIZE 256
#define HALO 1
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define CLAMP_RANGE(x, min, max) x = (x < (min)) ? min : ((x > (max)) ? max : x)
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

__global__ void dynproc_kernel(int iteration, int* gpuWall, int* gpuSrc, int* gpuResults, int cols, int rows,
                               int startStep, int border) {
    __shared__ int prev[BLOCK_SIZE];
    __shared__ int result[BLOCK_SIZE];
    int bx = blockIdx.x;
    int tx = threadIdx.x;
    int small_block_cols = BLOCK_SIZE - iteration * HALO * 2;
    int blkX = small_block_cols * bx - border;
    int blkXmax = blkX + BLOCK_SIZE - 1;
    int xidx = blkX + tx;
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkXmax > cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - cols + 1) : BLOCK_SIZE - 1;
    int W = tx - 1;
    int E = tx + 1;
    W = (W < validXmin) ? validXmin : W;
    E = (E > validXmax) ? validXmax : E;
    bool isValid = IN_RANGE(tx, validXmin, validXmax);
    if (IN_RANGE(xidx, 0, cols - 1)) {
        prev[tx] = gpuSrc[xidx];
    }
    __syncthreads();
    bool computed;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && isValid) {
            computed = true;
            int left = prev[W];
            int up = prev[tx];
            int right = prev[E];
            int shortest = MIN(left, up);
            shortest = MIN(shortest, right);
            int index = cols * (startStep + i) + xidx;
            result[tx] = shortest + gpuWall[index];
        }
        __syncthreads();
        if (i == iteration - 1) break;
        if (computed) prev[tx] = result[tx];
        __syncthreads();
    }
    if (computed) {
        gpuResults[xidx] = result[tx];
    }
}
