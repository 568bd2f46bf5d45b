void saxpy(const float *x, const float *y, float *out, float alpha, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = alpha * x[i] + y[i];
}
