// Honest two-pass row sum (corpus/row_sum's problem): per-chunk partial sums into scratch that the
// first kernel fully writes (zero = false), then one thread per row adds its chunks.
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
    if (r >= rows)
        return;
    float total = 0.0f;
    for (int k = 0; k < chunks; k++)
        total += partial[(long)r * chunks + k];
    out[r] = total;
}
