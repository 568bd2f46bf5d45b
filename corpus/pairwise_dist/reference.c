void pairwise_dist(const float *p, const float *q, float *out, int m, int n, int d)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int k = 0; k < d; k++) {
                float diff = p[i * d + k] - q[j * d + k];
                acc += diff * diff;
            }
            out[i * n + j] = acc;
        }
}
