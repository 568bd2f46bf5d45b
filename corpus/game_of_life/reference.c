void game_of_life(const int *cells, int *next, int ny, int nx)
{
    for (int i = 0; i < ny; i++)
        for (int j = 0; j < nx; j++) {
            int neighbours = 0;
            for (int di = -1; di <= 1; di++)
                for (int dj = -1; dj <= 1; dj++) {
                    int y = i + di, x = j + dj;
                    if ((di || dj) && y >= 0 && y < ny && x >= 0 && x < nx)
                        neighbours += cells[y * nx + x];
                }
            next[i * nx + j] = neighbours == 3 || (cells[i * nx + j] && neighbours == 2);
        }
}
