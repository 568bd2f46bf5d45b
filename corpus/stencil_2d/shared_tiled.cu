// A 32 x 8 tile plus a one-cell halo is staged in shared memory; every input is read from global
// memory about once per block instead of five times.
#define TX 32
#define TY 8

extern "C" __global__ void stencil_2d(const float *x, float *out, int ny, int nx)
{
    __shared__ float tile[TY + 2][TX + 2];
    int j0 = blockIdx.x * TX - 1, i0 = blockIdx.y * TY - 1;
    for (int k = threadIdx.y * TX + threadIdx.x; k < (TY + 2) * (TX + 2); k += TX * TY) {
        int ti = k / (TX + 2), tj = k % (TX + 2);
        int i = i0 + ti, j = j0 + tj;
        tile[ti][tj] = i >= 0 && i < ny && j >= 0 && j < nx ? x[(long)i * nx + j] : 0.0f;
    }
    __syncthreads();
    int j = j0 + 1 + threadIdx.x, i = i0 + 1 + threadIdx.y;
    if (i >= ny || j >= nx)
        return;
    int ti = threadIdx.y + 1, tj = threadIdx.x + 1;
    if (i == 0 || j == 0 || i == ny - 1 || j == nx - 1)
        out[(long)i * nx + j] = tile[ti][tj];
    else
        out[(long)i * nx + j] = 0.2f * (tile[ti][tj] + tile[ti - 1][tj] + tile[ti + 1][tj] + tile[ti][tj - 1] + tile[ti][tj + 1]);
}
