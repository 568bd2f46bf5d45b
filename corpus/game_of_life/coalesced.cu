// threadIdx.x runs along a row: each of the nine loads of a warp is one contiguous 128-byte run.
extern "C" __global__ void game_of_life(const int *cells, int *next, int ny, int nx)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ny || j >= nx)
        return;
    int neighbours = 0;
    for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++) {
            int y = i + di, x = j + dj;
            if ((di || dj) && y >= 0 && y < ny && x >= 0 && x < nx)
                neighbours += cells[(long)y * nx + x];
        }
    next[(long)i * nx + j] = neighbours == 3 || (cells[(long)i * nx + j] && neighbours == 2);
}
