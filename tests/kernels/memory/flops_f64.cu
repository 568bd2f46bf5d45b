// Double-precision kernels with a known amount of floating-point work per thread.

__constant__ double kPoly8d[9] = {1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625};

// y = a*x + y: one multiply-add.
extern "C" __global__ void flop_daxpy(const double* x, double* y, double a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// Degree-8 polynomial by Horner's rule: eight multiply-adds.
extern "C" __global__ void flop_horner8_f64(const double* x, double* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    double p = kPoly8d[8];
    #pragma unroll
    for (int k = 7; k >= 0; --k) p = p * v + kPoly8d[k];
    y[i] = p;
}

// Dot product of two length-16 vectors per thread, k-major.
extern "C" __global__ void flop_dot16_f64(const double* a, const double* b, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double s = 0.0;
    for (int k = 0; k < 16; ++k) s += a[k * n + i] * b[k * n + i];
    out[i] = s;
}

// 16 DADD and 16 DMUL per thread that the compiler may not fuse.
extern "C" __global__ void flop_dadd_dmul_unfused(const double* x, double* y, double b, double c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    #pragma unroll
    for (int k = 0; k < 16; ++k) {
        v = __dadd_rn(v, b);
        v = __dmul_rn(v, c);
    }
    y[i] = v;
}

// Five-point Laplacian on the interior of a w x h grid, 32x8 blocks.
extern "C" __global__ void flop_laplacian5_2d_f64(const double* in, double* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
    int c = y * w + x;
    out[c] = 0.25 * (in[c - 1] + in[c + 1] + in[c - w] + in[c + w] - 4.0 * in[c]);
}
