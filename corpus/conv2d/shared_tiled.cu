// A block computes a 16 x 16 patch of one output channel. For every input channel it stages the
// 18 x 18 input patch (with its halo) and the nine weights in shared memory.
#define T 16

extern "C" __global__ void conv2d(const float *x, const float *weight, const float *bias, float *out,
                                  int n, int cin, int cout, int h, int w)
{
    __shared__ float tile[T + 2][T + 2];
    __shared__ float k9[9];
    int b = blockIdx.z / cout, co = blockIdx.z % cout;
    int y0 = blockIdx.y * T - 1, x0 = blockIdx.x * T - 1;
    int tid = threadIdx.y * T + threadIdx.x;
    float acc = 0.0f;
    for (int ci = 0; ci < cin; ci++) {
        const float *plane = x + ((long)b * cin + ci) * h * w;
        for (int e = tid; e < (T + 2) * (T + 2); e += T * T) {
            int ty = e / (T + 2), tx = e % (T + 2);
            int sy = y0 + ty, sx = x0 + tx;
            tile[ty][tx] = sy >= 0 && sy < h && sx >= 0 && sx < w ? plane[sy * w + sx] : 0.0f;
        }
        if (tid < 9)
            k9[tid] = weight[(co * cin + ci) * 9 + tid];
        __syncthreads();
#pragma unroll
        for (int dy = 0; dy < 3; dy++)
#pragma unroll
            for (int dx = 0; dx < 3; dx++)
                acc += k9[dy * 3 + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
        __syncthreads();
    }
    int y = y0 + 1 + threadIdx.y, xx = x0 + 1 + threadIdx.x;
    if (y < h && xx < w)
        out[(((long)b * cout + co) * h + y) * w + xx] = acc + bias[co];
}

/* kernelscope:plan
[[launch]]
kernel = "conv2d"
grid = ["ceil_div(w, 16)", "ceil_div(h, 16)", "n * cout"]
block = ["16", "16"]
args = ["x", "weight", "bias", "out", "n", "cin", "cout", "h", "w"]
*/
