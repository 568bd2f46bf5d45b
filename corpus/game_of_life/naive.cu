// threadIdx.x walks down the rows, as the outer loop of the serial code: lanes of a warp are a
// row apart, so none of the nine loads coalesce.
extern "C" __global__ void game_of_life(const int *cells, int *next, int ny, int nx)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
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

/* kernelscope:plan
[[launch]]
kernel = "game_of_life"
grid = ["ceil_div(ny, 16)", "ceil_div(nx, 16)"]
block = ["16", "16"]
args = ["cells", "next", "ny", "nx"]
*/
