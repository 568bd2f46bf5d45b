void stencil_2d(const float *x, float *out, int ny, int nx)
{
    for (int i = 0; i < ny; i++)
        for (int j = 0; j < nx; j++) {
            int c = i * nx + j;
            if (i == 0 || j == 0 || i == ny - 1 || j == nx - 1)
                out[c] = x[c];
            else
                out[c] = 0.2f * (x[c] + x[c - nx] + x[c + nx] + x[c - 1] + x[c + 1]);
        }
}
