// __launch_bounds__ caps the block size and, with a minimum block count, the registers.
__global__ void __launch_bounds__(256, 4) bounded_heavy(const float* a, float* out, int n) {
    float v[40];
#pragma unroll
    for (int k = 0; k < 40; ++k) v[k] = a[(threadIdx.x + k * 131) % n];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 40; ++k) s += v[k] * v[39 - k] + v[(k * 3) % 40];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void __launch_bounds__(128) bounded_small(float* data) {
    data[blockIdx.x * 128 + threadIdx.x] *= 2.0f;
}

__global__ void __launch_bounds__(1024, 2) spilling(const float* a, float* out, int n) {
    float v[64];
#pragma unroll
    for (int k = 0; k < 64; ++k) v[k] = a[(threadIdx.x * 3 + k * 977) % n];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 64; ++k) s += v[k] * v[(k * 29) % 64] - v[(k * 13) % 64];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
