/* Bitonic sorting network applied to each row; len must be a power of two. */
void bitonic_sort(const float *x, float *out, int rows, int len)
{
    for (int r = 0; r < rows; r++) {
        float *v = out + r * len;
        for (int i = 0; i < len; i++)
            v[i] = x[r * len + i];
        for (int k = 2; k <= len; k *= 2)
            for (int j = k / 2; j > 0; j /= 2)
                for (int i = 0; i < len; i++) {
                    int partner = i ^ j;
                    if (partner > i) {
                        int ascending = (i & k) == 0;
                        if ((v[i] > v[partner]) == ascending) {
                            float t = v[i];
                            v[i] = v[partner];
                            v[partner] = t;
                        }
                    }
                }
    }
}
