// Register pressure that grows with the number of values kept live across a loop.
template <int N>
__global__ void unrolled_dot(const float* __restrict__ a, const float* __restrict__ b, float* out, int rows) {
    float acc[N];
#pragma unroll
    for (int k = 0; k < N; ++k) acc[k] = 0.0f;
    for (int r = threadIdx.x; r < rows; r += blockDim.x) {
#pragma unroll
        for (int k = 0; k < N; ++k) acc[k] += a[r * N + k] * b[k * rows + r];
    }
    float total = 0.0f;
#pragma unroll
    for (int k = 0; k < N; ++k) total += acc[k] * (k + 1);
    out[blockIdx.x * blockDim.x + threadIdx.x] = total;
}
template __global__ void unrolled_dot<4>(const float*, const float*, float*, int);
template __global__ void unrolled_dot<8>(const float*, const float*, float*, int);
template __global__ void unrolled_dot<21>(const float*, const float*, float*, int);
template __global__ void unrolled_dot<48>(const float*, const float*, float*, int);
template __global__ void unrolled_dot<70>(const float*, const float*, float*, int);
template __global__ void unrolled_dot<100>(const float*, const float*, float*, int);
template __global__ void unrolled_dot<150>(const float*, const float*, float*, int);
template __global__ void unrolled_dot<230>(const float*, const float*, float*, int);

__global__ void polynomial_heavy(const double* x, double* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double c[24];
#pragma unroll
    for (int k = 0; k < 24; ++k) c[k] = x[(i + k * 97) % n];
    double v = x[i], s = 0.0;
#pragma unroll
    for (int k = 0; k < 24; ++k) s = s * v + c[k] * c[23 - k];
    y[i] = s;
}
