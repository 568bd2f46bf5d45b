// A 2-D block covers an (x, y) patch and marches through z; the column values below, at and above
// the current plane stay in registers, so each step loads one new plane value plus the four
// in-plane neighbours from a shared-memory tile of the current plane.
#define TX 32
#define TY 8

extern "C" __global__ void stencil_3d(const float *x, float *out, int nz, int ny, int nx)
{
    __shared__ float tile[TY + 2][TX + 2];
    int j = blockIdx.x * TX + threadIdx.x, i = blockIdx.y * TY + threadIdx.y;
    bool inside = i < ny && j < nx;
    long plane = (long)ny * nx, column = (long)i * nx + j;
    float below = 0.0f, current = inside ? x[column] : 0.0f;
    float above = inside && nz > 1 ? x[plane + column] : 0.0f;
    int ti = threadIdx.y + 1, tj = threadIdx.x + 1;
    for (int k = 0; k < nz; k++) {
        __syncthreads();
        tile[ti][tj] = current;
        if (threadIdx.x == 0)
            tile[ti][0] = inside && j > 0 ? x[k * plane + column - 1] : 0.0f;
        if (threadIdx.x == TX - 1)
            tile[ti][TX + 1] = i < ny && j + 1 < nx ? x[k * plane + column + 1] : 0.0f;
        if (threadIdx.y == 0)
            tile[0][tj] = j < nx && i > 0 && i - 1 < ny ? x[k * plane + column - nx] : 0.0f;
        if (threadIdx.y == TY - 1)
            tile[TY + 1][tj] = j < nx && i + 1 < ny ? x[k * plane + column + nx] : 0.0f;
        __syncthreads();
        if (inside) {
            long c = k * plane + column;
            if (k == 0 || i == 0 || j == 0 || k == nz - 1 || i == ny - 1 || j == nx - 1)
                out[c] = current;
            else
                out[c] = 0.4f * current + 0.1f * (below + above + tile[ti - 1][tj] + tile[ti + 1][tj] + tile[ti][tj - 1] + tile[ti][tj + 1]);
        }
        below = current;
        current = above;
        above = inside && k + 2 < nz ? x[(k + 2) * plane + column] : 0.0f;
    }
}

/* kernelscope:plan
[[launch]]
kernel = "stencil_3d"
grid = ["ceil_div(nx, 32)", "ceil_div(ny, 8)", "1"]
block = ["32", "8", "1"]
args = ["x", "out", "nz", "ny", "nx"]
*/
