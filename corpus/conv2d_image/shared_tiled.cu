// A 32 x 8 output tile with its 3-pixel halo is staged in shared memory (zero outside the image),
// and the filter too, so the 49 taps read only shared memory.
#define R 3
#define TX 32
#define TY 8

extern "C" __global__ void conv2d_image(const float *image, const float *filter, float *out, int h, int w)
{
    __shared__ float tile[TY + 2 * R][TX + 2 * R];
    __shared__ float weights[49];
    int tid = threadIdx.y * TX + threadIdx.x;
    if (tid < 49)
        weights[tid] = filter[tid];
    int y0 = blockIdx.y * TY - R, x0 = blockIdx.x * TX - R;
    for (int k = tid; k < (TY + 2 * R) * (TX + 2 * R); k += TX * TY) {
        int ty = k / (TX + 2 * R), tx = k % (TX + 2 * R);
        int y = y0 + ty, x = x0 + tx;
        tile[ty][tx] = y >= 0 && y < h && x >= 0 && x < w ? image[(long)y * w + x] : 0.0f;
    }
    __syncthreads();
    int i = blockIdx.y * TY + threadIdx.y, j = blockIdx.x * TX + threadIdx.x;
    if (i >= h || j >= w)
        return;
    float acc = 0.0f;
#pragma unroll
    for (int di = 0; di < 7; di++)
#pragma unroll
        for (int dj = 0; dj < 7; dj++)
            acc += weights[di * 7 + dj] * tile[threadIdx.y + di][threadIdx.x + dj];
    out[(long)i * w + j] = acc;
}
