#define BINS 256

void row_histogram(const int *x, int *hist, int rows, int cols)
{
    for (int r = 0; r < rows; r++) {
        for (int b = 0; b < BINS; b++)
            hist[r * BINS + b] = 0;
        for (int c = 0; c < cols; c++)
            hist[r * BINS + x[r * cols + c]]++;
    }
}
