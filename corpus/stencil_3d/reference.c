void stencil_3d(const float *x, float *out, int nz, int ny, int nx)
{
    long plane = (long)ny * nx;
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < ny; i++)
            for (int j = 0; j < nx; j++) {
                long c = k * plane + (long)i * nx + j;
                if (k == 0 || i == 0 || j == 0 || k == nz - 1 || i == ny - 1 || j == nx - 1)
                    out[c] = x[c];
                else
                    out[c] = 0.4f * x[c] + 0.1f * (x[c - plane] + x[c + plane] + x[c - nx] + x[c + nx] + x[c - 1] + x[c + 1]);
            }
}
