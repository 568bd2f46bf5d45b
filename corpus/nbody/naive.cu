// The serial loop per body: every interaction reads the other body from global memory (scalar
// loads) and divides by powf(r2, 1.5).
extern "C" __global__ void nbody(const float *bodies, float *acc, float eps2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; j++) {
        float dx = bodies[4 * j] - bodies[4 * i];
        float dy = bodies[4 * j + 1] - bodies[4 * i + 1];
        float dz = bodies[4 * j + 2] - bodies[4 * i + 2];
        float s = bodies[4 * j + 3] / powf(dx * dx + dy * dy + dz * dz + eps2, 1.5f);
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
    }
    acc[3 * i] = ax;
    acc[3 * i + 1] = ay;
    acc[3 * i + 2] = az;
}
