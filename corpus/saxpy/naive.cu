// Each thread takes a contiguous run of 64 elements, the way the serial loop would be cut up;
// a warp's loads are 256 bytes apart, so nothing coalesces.
extern "C" __global__ void saxpy(const float *x, const float *y, float *out, float alpha, int n)
{
    const int chunk = 64;
    long start = ((long)blockIdx.x * blockDim.x + threadIdx.x) * chunk;
    for (long i = start; i < start + chunk && i < n; i++)
        out[i] = alpha * x[i] + y[i];
}

/* kernelscope:plan
[[launch]]
kernel = "saxpy"
grid = ["ceil_div(n, 256 * 64)"]
block = ["256"]
args = ["x", "y", "out", "alpha", "n"]
*/
