// Single-precision kernels with a known amount of floating-point work per thread, for checking
// static FLOP counts against ncu's executed FADD/FMUL/FFMA instruction counts. Loops have trip
// counts fixed in the source or passed as a bound scalar.

__constant__ float kPoly8[9] = {1.0f, 0.5f, 0.25f, 0.125f, 0.0625f, 0.03125f, 0.015625f, 0.0078125f, 0.00390625f};

// y = a*x + y: one multiply-add.
extern "C" __global__ void flop_saxpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// Degree-8 polynomial by Horner's rule: eight multiply-adds.
extern "C" __global__ void flop_horner8_f32(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    float p = kPoly8[8];
    #pragma unroll
    for (int k = 7; k >= 0; --k) p = p * v + kPoly8[k];
    y[i] = p;
}

// Dot product of two length-16 vectors per thread, stored k-major so loads stay coalesced.
extern "C" __global__ void flop_dot16_f32(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
    for (int k = 0; k < 16; ++k) s += a[k * n + i] * b[k * n + i];
    out[i] = s;
}

// Separate adds and multiplies that the compiler may not fuse (the _rn intrinsics forbid it):
// 16 FADD and 16 FMUL per thread.
extern "C" __global__ void flop_add_mul_unfused(const float* x, float* y, float b, float c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    #pragma unroll
    for (int k = 0; k < 16; ++k) {
        v = __fadd_rn(v, b);
        v = __fmul_rn(v, c);
    }
    y[i] = v;
}

// A multiply-add repeated a run-time number of times (bound: iters).
extern "C" __global__ void flop_fma_loop_runtime(const float* x, float* y, float a, float b, int iters, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    for (int k = 0; k < iters; ++k) v = v * a + b;
    y[i] = v;
}

// Grid-stride loop, four dependent multiply-adds per element.
extern "C" __global__ void flop_grid_stride_fma4(const float* x, float* y, float a, float b, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = x[i];
        v = v * a + b;
        v = v * a + b;
        v = v * a + b;
        v = v * a + b;
        y[i] = v;
    }
}

// Naive matrix multiply C (m x n) = A (m x k) * B (k x n), one output per thread, 16x16 blocks:
// k multiply-adds per thread.
extern "C" __global__ void flop_matmul_naive(const float* A, const float* B, float* C, int m, int n, int k) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) return;
    float acc = 0.0f;
    for (int t = 0; t < k; ++t) acc += A[row * k + t] * B[t * n + col];
    C[row * n + col] = acc;
}

// The same product through 16x16 shared tiles (k a multiple of 16, 16x16 blocks).
extern "C" __global__ void flop_matmul_tiled16(const float* A, const float* B, float* C, int m, int n, int k) {
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * 16 + tx;
    int row = blockIdx.y * 16 + ty;
    float acc = 0.0f;
    for (int t0 = 0; t0 < k; t0 += 16) {
        As[ty][tx] = A[row * k + t0 + tx];
        Bs[ty][tx] = B[(t0 + ty) * n + col];
        __syncthreads();
        #pragma unroll
        for (int t = 0; t < 16; ++t) acc += As[ty][t] * Bs[t][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// Five-point 1-D stencil on the interior [2, n-2): one multiply and four multiply-adds.
extern "C" __global__ void flop_stencil5_1d(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 2 || i >= n - 2) return;
    out[i] = 0.1f * in[i - 2] + 0.2f * in[i - 1] + 0.4f * in[i] + 0.2f * in[i + 1] + 0.1f * in[i + 2];
}

// Transcendental: sinf expands into range reduction and a polynomial in FFMA/FMUL.
extern "C" __global__ void flop_sinf(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = sinf(x[i]);
}

// IEEE division: a reciprocal estimate refined by multiply-adds.
extern "C" __global__ void flop_divide(const float* x, const float* d, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] / d[i];
}
