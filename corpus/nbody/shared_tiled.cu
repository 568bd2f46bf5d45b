// Bodies are staged in shared memory one block-sized tile at a time and each thread keeps its own
// body in registers; 1 / r^3 comes from one rsqrtf.
#define TILE 64

extern "C" __global__ void nbody(const float *bodies, float *acc, float eps2, int n)
{
    __shared__ float4 tile[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    float4 me = i < n ? reinterpret_cast<const float4 *>(bodies)[i] : make_float4(0, 0, 0, 0);
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int base = 0; base < n; base += TILE) {
        int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? reinterpret_cast<const float4 *>(bodies)[j] : make_float4(0, 0, 0, 0);
        __syncthreads();
        for (int t = 0; t < TILE; t++) {
            float4 other = tile[t];
            float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
            float inv = rsqrtf(dx * dx + dy * dy + dz * dz + eps2);
            float s = other.w * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    if (i < n) {
        acc[3 * i] = ax;
        acc[3 * i + 1] = ay;
        acc[3 * i + 2] = az;
    }
}
