void row_scan(const int *x, int *out, int rows, int cols)
{
    for (int r = 0; r < rows; r++) {
        int acc = 0;
        for (int c = 0; c < cols; c++) {
            acc += x[r * cols + c];
            out[r * cols + c] = acc;
        }
    }
}
