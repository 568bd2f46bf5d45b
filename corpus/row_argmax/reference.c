void row_argmax(const float *x, int *out, int rows, int cols)
{
    for (int r = 0; r < rows; r++) {
        int best = 0;
        for (int c = 1; c < cols; c++)
            if (x[r * cols + c] > x[r * cols + best])
                best = c;
        out[r] = best;
    }
}
