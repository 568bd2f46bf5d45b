// A 32 x 8 tile and its one-cell halo are staged in shared memory (dead outside the grid), so each
// cell is loaded from global memory about once per block instead of nine times.
#define TX 32
#define TY 8

extern "C" __global__ void game_of_life(const int *cells, int *next, int ny, int nx)
{
    __shared__ int tile[TY + 2][TX + 2];
    int i0 = blockIdx.y * TY - 1, j0 = blockIdx.x * TX - 1;
    for (int k = threadIdx.y * TX + threadIdx.x; k < (TY + 2) * (TX + 2); k += TX * TY) {
        int ti = k / (TX + 2), tj = k % (TX + 2);
        int y = i0 + ti, x = j0 + tj;
        tile[ti][tj] = y >= 0 && y < ny && x >= 0 && x < nx ? cells[(long)y * nx + x] : 0;
    }
    __syncthreads();
    int i = i0 + 1 + threadIdx.y, j = j0 + 1 + threadIdx.x;
    if (i >= ny || j >= nx)
        return;
    int ti = threadIdx.y + 1, tj = threadIdx.x + 1;
    int neighbours = tile[ti - 1][tj - 1] + tile[ti - 1][tj] + tile[ti - 1][tj + 1] + tile[ti][tj - 1]
                   + tile[ti][tj + 1] + tile[ti + 1][tj - 1] + tile[ti + 1][tj] + tile[ti + 1][tj + 1];
    next[(long)i * nx + j] = neighbours == 3 || (tile[ti][tj] && neighbours == 2);
}
