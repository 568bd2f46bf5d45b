// One thread copies a whole embedding row; the lanes of a warp copy 32 different rows, so each
// load and store is its own sector.
extern "C" __global__ void embedding(const float *weight, const int *idx, float *out, int tokens, int dim)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= tokens)
        return;
    const float *src = weight + (long)idx[t] * dim;
    for (int d = 0; d < dim; d++)
        out[(long)t * dim + d] = src[d];
}

/* kernelscope:plan
[[launch]]
kernel = "embedding"
grid = ["ceil_div(tokens, 128)"]
block = ["128"]
args = ["weight", "idx", "out", "tokens", "dim"]
*/
