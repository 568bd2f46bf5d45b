// Each thread computes four outputs in a column (a 32 x 32 tile per 32 x 8 block). The shared tile
// is read one input row at a time into registers, and each input row feeds up to four outputs.
#define R 3
#define TX 32
#define TY 32
#define PER 4

extern "C" __global__ void conv2d_image(const float *image, const float *filter, float *out, int h, int w)
{
    __shared__ float tile[TY + 2 * R][TX + 2 * R];
    __shared__ float weights[49];
    int tid = threadIdx.y * TX + threadIdx.x;
    if (tid < 49)
        weights[tid] = filter[tid];
    int y0 = blockIdx.y * TY - R, x0 = blockIdx.x * TX - R;
    for (int k = tid; k < (TY + 2 * R) * (TX + 2 * R); k += TX * 8) {
        int ty = k / (TX + 2 * R), tx = k % (TX + 2 * R);
        int y = y0 + ty, x = x0 + tx;
        tile[ty][tx] = y >= 0 && y < h && x >= 0 && x < w ? image[(long)y * w + x] : 0.0f;
    }
    __syncthreads();
    float acc[PER] = {};
    int top = threadIdx.y * PER;
#pragma unroll
    for (int r = 0; r < PER + 2 * R; r++) {
        float row[7];
#pragma unroll
        for (int dj = 0; dj < 7; dj++)
            row[dj] = tile[top + r][threadIdx.x + dj];
#pragma unroll
        for (int p = 0; p < PER; p++) {
            int di = r - p;
            if (di >= 0 && di < 7)
#pragma unroll
                for (int dj = 0; dj < 7; dj++)
                    acc[p] += weights[di * 7 + dj] * row[dj];
        }
    }
    int j = blockIdx.x * TX + threadIdx.x;
#pragma unroll
    for (int p = 0; p < PER; p++) {
        int i = blockIdx.y * TY + top + p;
        if (i < h && j < w)
            out[(long)i * w + j] = acc[p];
    }
}

/* kernelscope:plan
[[launch]]
kernel = "conv2d_image"
grid = ["ceil_div(w, 32)", "ceil_div(h, 32)"]
block = ["32", "8"]
args = ["image", "filter", "out", "h", "w"]
*/
