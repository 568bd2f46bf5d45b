// Models Parboil's stencil (7-point Jacobi on a 3-D grid), written here from its description of
// the naive kernel: one thread per interior point, x fastest, indices offset by one to skip the
// boundary, Anext = c1 * (sum of six neighbours) - c0 * centre.
#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + (_nx) * ((_j) + (_ny) * (_k)))

__global__ void naive_kernel(float c0, float c1, float* A0, float* Anext, int nx, int ny, int nz) {
    int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    int k = blockIdx.z * blockDim.z + threadIdx.z + 1;
    if (i < nx - 1) {
        Anext[Index3D(nx, ny, i, j, k)] =
            (A0[Index3D(nx, ny, i, j, k + 1)] + A0[Index3D(nx, ny, i, j, k - 1)] + A0[Index3D(nx, ny, i, j + 1, k)] +
             A0[Index3D(nx, ny, i, j - 1, k)] + A0[Index3D(nx, ny, i + 1, j, k)] + A0[Index3D(nx, ny, i - 1, j, k)]) * c1 -
            A0[Index3D(nx, ny, i, j, k)] * c0;
    }
}
