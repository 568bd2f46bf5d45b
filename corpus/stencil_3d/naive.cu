// The thread index follows the loop nest from the outside in (x -> k, y -> i, z -> j), so the
// lanes of a warp sit in different planes and rows and nothing coalesces.
extern "C" __global__ void stencil_3d(const float *x, float *out, int nz, int ny, int nx)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.z * blockDim.z + threadIdx.z;
    if (k >= nz || i >= ny || j >= nx)
        return;
    long plane = (long)ny * nx;
    long c = k * plane + (long)i * nx + j;
    if (k == 0 || i == 0 || j == 0 || k == nz - 1 || i == ny - 1 || j == nx - 1)
        out[c] = x[c];
    else
        out[c] = 0.4f * x[c] + 0.1f * (x[c - plane] + x[c + plane] + x[c - nx] + x[c + nx] + x[c - 1] + x[c + 1]);
}

/* kernelscope:plan
[[launch]]
kernel = "stencil_3d"
grid = ["ceil_div(nz, 8)", "ceil_div(ny, 8)", "ceil_div(nx, 4)"]
block = ["8", "8", "4"]
args = ["x", "out", "nz", "ny", "nx"]
*/
