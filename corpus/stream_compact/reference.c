void stream_compact(const float *x, float *out, int *count, int rows, int cols)
{
    for (int r = 0; r < rows; r++) {
        int kept = 0;
        for (int c = 0; c < cols; c++)
            if (x[r * cols + c] > 0)
                out[r * cols + kept++] = x[r * cols + c];
        for (int c = kept; c < cols; c++)
            out[r * cols + c] = 0.0f;
        count[r] = kept;
    }
}
