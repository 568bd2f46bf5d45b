// Each thread copies a contiguous run of 64 entries; index reads and output writes of a warp are
// 256 bytes apart.
extern "C" __global__ void gather(const float *x, const int *idx, float *out, int n)
{
    const int chunk = 64;
    long start = ((long)blockIdx.x * blockDim.x + threadIdx.x) * chunk;
    for (long i = start; i < start + chunk && i < n; i++)
        out[i] = x[idx[i]];
}

/* kernelscope:plan
[[launch]]
kernel = "gather"
grid = ["ceil_div(n, 256 * 64)"]
block = ["256"]
args = ["x", "idx", "out", "n"]
*/
