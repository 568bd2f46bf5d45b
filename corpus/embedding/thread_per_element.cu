// One thread per output element: consecutive lanes copy consecutive floats of a row (coalesced),
// at the price of a division and an index load per element.
extern "C" __global__ void embedding(const float *weight, const int *idx, float *out, int tokens, int dim)
{
    long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= (long)tokens * dim)
        return;
    long t = e / dim;
    int d = e - t * dim;
    out[e] = weight[(long)idx[t] * dim + d];
}

/* kernelscope:plan
[[launch]]
kernel = "embedding"
grid = ["ceil_div(tokens * dim, 256)"]
block = ["256"]
args = ["weight", "idx", "out", "tokens", "dim"]
*/
