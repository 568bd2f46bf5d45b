void matvec(const float *a, const float *x, float *y, int rows, int cols)
{
    for (int r = 0; r < rows; r++) {
        float acc = 0.0f;
        for (int c = 0; c < cols; c++)
            acc += a[r * cols + c] * x[c];
        y[r] = acc;
    }
}
