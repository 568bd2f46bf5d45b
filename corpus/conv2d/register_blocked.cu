// Each thread computes one pixel for eight output channels at once, keeping eight accumulators in
// registers: every input value loaded from the shared tile feeds eight multiply-adds, and the
// weights of the eight channels for the current input channel sit in shared memory.
#define T 16
#define CO 8

extern "C" __global__ void conv2d(const float *x, const float *weight, const float *bias, float *out,
                                  int n, int cin, int cout, int h, int w)
{
    __shared__ float tile[T + 2][T + 2];
    __shared__ float k9[CO][9];
    int groups = (cout + CO - 1) / CO;
    int b = blockIdx.z / groups, co0 = (blockIdx.z % groups) * CO;
    int y0 = blockIdx.y * T - 1, x0 = blockIdx.x * T - 1;
    int tid = threadIdx.y * T + threadIdx.x;
    float acc[CO] = {};
    for (int ci = 0; ci < cin; ci++) {
        const float *plane = x + ((long)b * cin + ci) * h * w;
        for (int e = tid; e < (T + 2) * (T + 2); e += T * T) {
            int ty = e / (T + 2), tx = e % (T + 2);
            int sy = y0 + ty, sx = x0 + tx;
            tile[ty][tx] = sy >= 0 && sy < h && sx >= 0 && sx < w ? plane[sy * w + sx] : 0.0f;
        }
        if (tid < CO * 9) {
            int o = tid / 9, t = tid % 9;
            k9[o][t] = co0 + o < cout ? weight[((co0 + o) * cin + ci) * 9 + t] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int dy = 0; dy < 3; dy++)
#pragma unroll
            for (int dx = 0; dx < 3; dx++) {
                float v = tile[threadIdx.y + dy][threadIdx.x + dx];
#pragma unroll
                for (int o = 0; o < CO; o++)
                    acc[o] = fmaf(k9[o][dy * 3 + dx], v, acc[o]);
            }
        __syncthreads();
    }
    int y = y0 + 1 + threadIdx.y, xx = x0 + 1 + threadIdx.x;
    if (y >= h || xx >= w)
        return;
#pragma unroll
    for (int o = 0; o < CO; o++)
        if (co0 + o < cout)
            out[(((long)b * cout + co0 + o) * h + y) * w + xx] = acc[o] + bias[co0 + o];
}

/* kernelscope:plan
[[launch]]
kernel = "conv2d"
grid = ["ceil_div(w, 16)", "ceil_div(h, 16)", "n * ceil_div(cout, 8)"]
block = ["16", "16"]
args = ["x", "weight", "bias", "out", "n", "cin", "cout", "h", "w"]
*/
