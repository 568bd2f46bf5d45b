// Shared-memory tiles as in the tiled version, with the inner loop fully unrolled so that the
// loads and rsqrtf of several interactions overlap. Padding bodies have zero mass.
#define TILE 64

extern "C" __global__ void nbody(const float *__restrict__ bodies, float *__restrict__ acc, float eps2, int n)
{
    __shared__ float4 tile[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    const float4 *b4 = reinterpret_cast<const float4 *>(bodies);
    float4 me = i < n ? b4[i] : make_float4(0, 0, 0, 0);
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int base = 0; base < n; base += TILE) {
        int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? __ldg(&b4[j]) : make_float4(0, 0, 0, 0);
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
        acc[3 * i] = ax;
        acc[3 * i + 1] = ay;
        acc[3 * i + 2] = az;
    }
}
