// threadIdx.x walks down the rows (the outer loop of the serial code), so neighbouring lanes are a
// whole row apart and no access coalesces.
extern "C" __global__ void stencil_2d(const float *x, float *out, int ny, int nx)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ny || j >= nx)
        return;
    long c = (long)i * nx + j;
    if (i == 0 || j == 0 || i == ny - 1 || j == nx - 1)
        out[c] = x[c];
    else
        out[c] = 0.2f * (x[c] + x[c - nx] + x[c + nx] + x[c - 1] + x[c + 1]);
}

/* kernelscope:plan
[[launch]]
kernel = "stencil_2d"
grid = ["ceil_div(ny, 16)", "ceil_div(nx, 16)"]
block = ["16", "16"]
args = ["x", "out", "ny", "nx"]
*/
