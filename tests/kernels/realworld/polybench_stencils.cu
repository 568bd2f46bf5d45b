// Models PolyBench/GPU's CUDA stencil and data-mining kernels, written here from the PolyBench loop
// nests they parallelise (32x8 blocks, one point per thread, x fastest): 2DCONV (a 3x3
// convolution with fixed coefficients), covariance (column means, centring, then one covariance
// entry per thread of a 1-D block looping over the rows), fdtd-2d (the three field updates of one
// time step) and jacobi-2d (the 5-point average and the copy back).
typedef float DATA_TYPE;
#define FLOAT_N 3214212.01f

__global__ void Convolution2D_kernel(DATA_TYPE* A, DATA_TYPE* B, int NI, int NJ) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    DATA_TYPE c11, c12, c13, c21, c22, c23, c31, c32, c33;
    c11 = +0.2;  c21 = +0.5;  c31 = -0.8;
    c12 = -0.3;  c22 = +0.6;  c32 = -0.9;
    c13 = +0.4;  c23 = +0.7;  c33 = +0.10;
    if ((i < NI - 1) && (j < NJ - 1) && (i > 0) && (j > 0)) {
        B[i * NJ + j] = c11 * A[(i - 1) * NJ + (j - 1)] + c21 * A[(i - 1) * NJ + (j + 0)] +
                        c31 * A[(i - 1) * NJ + (j + 1)] + c12 * A[(i + 0) * NJ + (j - 1)] +
                        c22 * A[(i + 0) * NJ + (j + 0)] + c32 * A[(i + 0) * NJ + (j + 1)] +
                        c13 * A[(i + 1) * NJ + (j - 1)] + c23 * A[(i + 1) * NJ + (j + 0)] +
                        c33 * A[(i + 1) * NJ + (j + 1)];
    }
}

__global__ void mean_kernel(DATA_TYPE* mean, DATA_TYPE* data, int M, int N) {
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if ((j >= 1) && (j < (M + 1))) {
        mean[j] = 0.0;
        int i;
        for (i = 1; i < (N + 1); i++) {
            mean[j] += data[i * (M + 1) + j];
        }
        mean[j] /= (DATA_TYPE)FLOAT_N;
    }
}

__global__ void reduce_kernel(DATA_TYPE* mean, DATA_TYPE* data, int M, int N) {
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if ((i >= 1) && (i < (N + 1)) && (j >= 1) && (j < (M + 1))) {
        data[i * (M + 1) + j] -= mean[j];
    }
}

__global__ void covar_kernel(DATA_TYPE* symmat, DATA_TYPE* data, int M, int N) {
    int j1 = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i, j2;
    if ((j1 >= 1) && (j1 < (M + 1))) {
        for (j2 = j1; j2 < (M + 1); j2++) {
            symmat[j1 * (M + 1) + j2] = 0.0;
            for (i = 1; i < (N + 1); i++) {
                symmat[j1 * (M + 1) + j2] += data[i * (M + 1) + j1] * data[i * (M + 1) + j2];
            }
            symmat[j2 * (M + 1) + j1] = symmat[j1 * (M + 1) + j2];
        }
    }
}

__global__ void fdtd_step1_kernel(DATA_TYPE* _fict_, DATA_TYPE* ex, DATA_TYPE* ey, DATA_TYPE* hz, int t, int NX,
                                  int NY) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < NX) && (j < NY)) {
        if (i == 0) {
            ey[i * NY + j] = _fict_[t];
        } else {
            ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
        }
    }
}

__global__ void fdtd_step2_kernel(DATA_TYPE* ex, DATA_TYPE* ey, DATA_TYPE* hz, int t, int NX, int NY) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < NX) && (j < NY) && (j > 0)) {
        ex[i * (NY + 1) + j] = ex[i * (NY + 1) + j] - 0.5f * (hz[i * NY + j] - hz[i * NY + (j - 1)]);
    }
}

__global__ void fdtd_step3_kernel(DATA_TYPE* ex, DATA_TYPE* ey, DATA_TYPE* hz, int t, int NX, int NY) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < NX) && (j < NY)) {
        hz[i * NY + j] = hz[i * NY + j] - 0.7f * (ex[i * (NY + 1) + (j + 1)] - ex[i * (NY + 1) + j] +
                                                  ey[(i + 1) * NY + j] - ey[i * NY + j]);
    }
}

__global__ void runJacobiCUDA_kernel1(int n, DATA_TYPE* A, DATA_TYPE* B) {
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) {
        B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + (j - 1)] + A[i * n + (1 + j)] + A[(1 + i) * n + j] +
                               A[(i - 1) * n + j]);
    }
}

__global__ void runJacobiCUDA_kernel2(int n, DATA_TYPE* A, DATA_TYPE* B) {
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) {
        A[i * n + j] = B[i * n + j];
    }
}
