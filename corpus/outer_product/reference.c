void outer_product(const float *a, const float *b, float *out, int m, int n)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            out[i * n + j] = a[i] * b[j];
}
