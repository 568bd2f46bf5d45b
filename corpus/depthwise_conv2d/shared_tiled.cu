// A 32 x 8 tile and its one-pixel halo (zero outside the plane) are staged in shared memory and
// the channel's nine weights in registers, so each tap is a shared-memory read.
#define TX 32
#define TY 8

extern "C" __global__ void depthwise_conv2d(const float *x, const float *weight, float *out, int c, int h, int w)
{
    __shared__ float tile[TY + 2][TX + 2];
    int plane = blockIdx.z, ch = plane % c;
    const float *src = x + (long)plane * h * w;
    int y0 = blockIdx.y * TY - 1, x0 = blockIdx.x * TX - 1;
    for (int k = threadIdx.y * TX + threadIdx.x; k < (TY + 2) * (TX + 2); k += TX * TY) {
        int ty = k / (TX + 2), tx = k % (TX + 2);
        int sy = y0 + ty, sx = x0 + tx;
        tile[ty][tx] = sy >= 0 && sy < h && sx >= 0 && sx < w ? src[sy * w + sx] : 0.0f;
    }
    float k9[9];
#pragma unroll
    for (int t = 0; t < 9; t++)
        k9[t] = weight[ch * 9 + t];
    __syncthreads();
    int y = y0 + 1 + threadIdx.y, xx = x0 + 1 + threadIdx.x;
    if (y >= h || xx >= w)
        return;
    float acc = 0.0f;
#pragma unroll
    for (int dy = 0; dy < 3; dy++)
#pragma unroll
        for (int dx = 0; dx < 3; dx++)
            acc += k9[dy * 3 + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
    out[(long)plane * h * w + y * w + xx] = acc;
}
