#define DEGREE 16

void polynomial(const float *x, const float *coeffs, float *y, int n)
{
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int k = DEGREE; k >= 0; k--)
            acc = acc * x[i] + coeffs[k];
        y[i] = acc;
    }
}
