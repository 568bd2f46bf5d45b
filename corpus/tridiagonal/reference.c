/* Thomas algorithm per system; lower[0] and upper[n-1] are ignored. c and d are scratch copies. */
void tridiagonal(const float *lower, const float *diag, const float *upper, const float *rhs, float *x,
                 int batch, int n)
{
    float c[4096], d[4096];
    for (int s = 0; s < batch; s++) {
        const float *a = lower + s * n, *b = diag + s * n, *u = upper + s * n, *r = rhs + s * n;
        c[0] = u[0] / b[0];
        d[0] = r[0] / b[0];
        for (int i = 1; i < n; i++) {
            float m = b[i] - a[i] * c[i - 1];
            c[i] = u[i] / m;
            d[i] = (r[i] - a[i] * d[i - 1]) / m;
        }
        x[s * n + n - 1] = d[n - 1];
        for (int i = n - 2; i >= 0; i--)
            x[s * n + i] = d[i] - c[i] * x[s * n + i + 1];
    }
}
