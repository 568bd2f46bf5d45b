/* kernelscope:plan
# n = 8192 bodies make only 128 blocks of 64 threads: one wave on 132 SMs with 2 warps each, too
# few to hide the latency of rsqrtf and the shared loads. The source bodies are split into 16 ranges
# as well (the split-K idea): every block accumulates one range into scratch, a second kernel adds
# the 16 partial accelerations of each body.
[[scalars]]
name = "splits"
value = "min(16, ceil_div(n, 512))"

[[scalars]]
name = "span"
value = "64 * ceil_div(ceil_div(n, splits), 64)"

[[scratch]]
name = "partial"
dtype = "float32"
zero = false                          # fully written by the first launch
shape = ["splits", "3", "n"]

[[launch]]
kernel = "nbody_range"
grid = ["ceil_div(n, 64)", "splits"]
block = ["64"]
args = ["bodies", "partial", "eps2", "n", "span"]

[[launch]]
kernel = "nbody_finish"
grid = ["ceil_div(n, 256)"]
block = ["256"]
args = ["partial", "acc", "n", "splits"]
*/
#define TILE 64

extern "C" __global__ void nbody_range(const float *__restrict__ bodies, float *__restrict__ partial, float eps2,
                                       int n, int span)
{
    __shared__ float4 tile[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    const float4 *b4 = reinterpret_cast<const float4 *>(bodies);
    float4 me = i < n ? b4[i] : make_float4(0, 0, 0, 0);
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    int start = blockIdx.y * span, stop = min(start + span, n);
    for (int base = start; base < stop; base += TILE) {
        int j = base + threadIdx.x;
        tile[threadIdx.x] = j < stop ? __ldg(&b4[j]) : make_float4(0, 0, 0, 0);   // padding has zero mass
        __syncthreads();
#pragma unroll
        for (int t = 0; t < TILE; t++) {
            float4 other = tile[t];
            float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
            float inv = rsqrtf(fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, eps2))));
            float s = other.w * inv * inv * inv;
            ax = fmaf(dx, s, ax);
            ay = fmaf(dy, s, ay);
            az = fmaf(dz, s, az);
        }
        __syncthreads();
    }
    if (i < n) {
        float *mine = partial + (long)blockIdx.y * 3 * n;
        mine[i] = ax;
        mine[n + i] = ay;
        mine[2 * n + i] = az;
    }
}

extern "C" __global__ void nbody_finish(const float *__restrict__ partial, float *__restrict__ acc, int n, int splits)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int s = 0; s < splits; s++) {
        const float *p = partial + (long)s * 3 * n;
        ax += p[i];
        ay += p[n + i];
        az += p[2 * n + i];
    }
    acc[3 * i] = ax;
    acc[3 * i + 1] = ay;
    acc[3 * i + 2] = az;
}
