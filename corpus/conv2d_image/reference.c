#define R 3

void conv2d_image(const float *image, const float *filter, float *out, int h, int w)
{
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            float acc = 0.0f;
            for (int di = -R; di <= R; di++)
                for (int dj = -R; dj <= R; dj++) {
                    int y = i + di, x = j + dj;
                    if (y >= 0 && y < h && x >= 0 && x < w)
                        acc += filter[(di + R) * 7 + dj + R] * image[y * w + x];
                }
            out[i * w + j] = acc;
        }
}
