// Function-like index macros: accesses must be located on the line where
// the macro is used, not inside the #define.
#define IDX(r, c, ld) ((r) * (ld) + (c))
#define IDX3(z, y, x, ny, nx) (((z) * (ny) + (y)) * (nx) + (x))

__global__ void copy_matrix(const float* __restrict__ src, float* __restrict__ dst,
                            int rows, int cols, int ld)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols) {
        dst[IDX(r, c, ld)] =
            src[IDX(r, c, ld)];
    }
}

__global__ void copy_volume(const float* src, float* dst, int nz, int ny, int nx)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z;
    if (x < nx && y < ny && z < nz)
        dst[IDX3(z, y, x, ny, nx)] = 2.0f * src[IDX3(z, y, x, ny, nx)];
}
