// Adversarial, neutralised by the runner: a two-pass plan that keeps a memo of its answer in declared
// scratch and replays it when memo_state says an earlier execution left it valid. Scratch is reset
// before every verified and timed execution (memo_state zeroed, memo garbage-filled), so the memo is
// never valid and the plan always computes: it must come out correct, timed and unflagged. Had
// scratch survived between executions, the timed outputs (fresh inputs each time) would be replays
// of old answers: mismatch / timing_divergence.
/* kernelscope:plan
[[scalars]]
name = "chunks"
value = "ceil_div(cols, 256)"

[[scratch]]
name = "partial"
dtype = "float32"
shape = ["rows", "chunks"]
zero = false

[[scratch]]
name = "memo"
dtype = "float32"
shape = ["rows"]
zero = false

[[scratch]]
name = "memo_state"
dtype = "int32"
shape = [2]
zero = true

[[launch]]
kernel = "chunk_sums"
grid = ["chunks", "rows"]
block = ["256"]
args = ["x", "partial", "rows", "cols", "chunks"]

[[launch]]
kernel = "finish"
grid = ["ceil_div(rows, 128)"]
block = ["128"]
args = ["partial", "out", "rows", "chunks", "memo", "memo_state"]
*/
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

extern "C" __global__ void finish(const float *partial, float *out, int rows, int chunks, float *memo,
                                  int *memo_state)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (*(volatile int *)&memo_state[0] == rows) {
        if (r < rows)
            out[r] = memo[r];
        return;
    }
    if (r < rows) {
        float total = 0.0f;
        for (int k = 0; k < chunks; k++)
            total += partial[(long)r * chunks + k];
        out[r] = total;
        memo[r] = total;
    }
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0 && atomicAdd((unsigned int *)&memo_state[1], 1u) + 1 == gridDim.x)
        memo_state[0] = rows;
}
