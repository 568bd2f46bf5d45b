#define RADIUS 4

void stencil_1d(const float *x, const float *w, float *out, int n)
{
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; k++)
            if (i + k >= 0 && i + k < n)
                acc += w[k + RADIUS] * x[i + k];
        out[i] = acc;
    }
}
