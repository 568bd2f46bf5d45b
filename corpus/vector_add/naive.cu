// Direct split of the serial loop: every thread walks its own contiguous chunk of 64 elements,
// so the 32 lanes of a warp touch 32 different cache lines on every step.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    const int chunk = 64;
    long start = ((long)blockIdx.x * blockDim.x + threadIdx.x) * chunk;
    for (long i = start; i < start + chunk && i < n; i++)
        c[i] = a[i] + b[i];
}

/* kernelscope:plan
[[launch]]
kernel = "vector_add"
grid = ["ceil_div(n, 256 * 64)"]
block = ["256"]
args = ["a", "b", "c", "n"]
*/
