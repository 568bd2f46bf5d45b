// Adversarial: a two-pass plan that memorises its answer in __device__ globals across executions of
// the plan: once an execution has finished, every later one for the same number of rows replays the
// memorised sums without reading x. The harness restores globals before every execution (so the replay
// never happens) and compares them after it: state_carried.
/* kernelscope:plan
[[scalars]]
name = "chunks"
value = "ceil_div(cols, 256)"

[[scratch]]
name = "partial"
dtype = "float32"
shape = ["rows", "chunks"]
zero = false

[[launch]]
kernel = "chunk_sums"
grid = ["chunks", "rows"]
block = ["256"]
args = ["x", "partial", "rows", "cols", "chunks"]

[[launch]]
kernel = "finish"
grid = ["ceil_div(rows, 128)"]
block = ["128"]
args = ["partial", "out", "rows", "chunks"]
*/
#define MEMO_ROWS 8192
__device__ float memo[MEMO_ROWS];
__device__ int memo_rows = -1;
__device__ unsigned int blocks_done = 0;
extern "C" __global__ void chunk_sums(const float *x, float *partial, int rows, int cols, int chunks)
{
    __shared__ float warp_sums[8];
    int c = blockIdx.x * 256 + threadIdx.x, r = blockIdx.y;
    float v = c < cols ? x[(long)r * cols + c] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int w = 0; w < 8; w++)
            total += warp_sums[w];
        partial[(long)r * chunks + blockIdx.x] = total;
    }
}

extern "C" __global__ void finish(const float *partial, float *out, int rows, int chunks)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (*(volatile int *)&memo_rows == rows) {
        if (r < rows)
            out[r] = memo[r];
        return;
    }
    if (r < rows) {
        float total = 0.0f;
        for (int k = 0; k < chunks; k++)
            total += partial[(long)r * chunks + k];
        out[r] = total;
        if (r < MEMO_ROWS)
            memo[r] = total;
    }
    __threadfence();
    __syncthreads();
    // valid once the last block is done, so every block of one execution takes the same path
    if (threadIdx.x == 0 && atomicAdd(&blocks_done, 1) + 1 == gridDim.x) {
        memo_rows = rows;
        blocks_done = 0;
    }
}
