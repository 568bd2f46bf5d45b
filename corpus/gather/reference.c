void gather(const float *x, const int *idx, float *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = x[idx[i]];
}
