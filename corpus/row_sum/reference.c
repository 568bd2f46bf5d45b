void row_sum(const float *x, float *out, int rows, int cols)
{
    for (int r = 0; r < rows; r++) {
        float acc = 0.0f;
        for (int c = 0; c < cols; c++)
            acc += x[r * cols + c];
        out[r] = acc;
    }
}
