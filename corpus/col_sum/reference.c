void col_sum(const float *x, float *out, int rows, int cols)
{
    for (int c = 0; c < cols; c++) {
        float acc = 0.0f;
        for (int r = 0; r < rows; r++)
            acc += x[r * cols + c];
        out[c] = acc;
    }
}
