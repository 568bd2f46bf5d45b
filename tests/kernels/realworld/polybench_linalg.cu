// Models PolyBench/GPU's CUDA linear-algebra kernels (Grauer-Gray et al.), written here from the
// PolyBench loop nests they parallelise: gemm (C = alpha*A*B + beta*C, 32x8 blocks, one C element
// per thread), atax (tmp = A x; y = A^T tmp), bicg (s = A^T r; q = A p), mvt (x1 += A y1;
// x2 += A^T y2), gesummv (y = alpha*A x + beta*B x) and syrk (C = alpha*A*A^T + beta*C). The
// matrix-vector kernels give one row (or column) to each thread of a 1-D block of 256 and
// accumulate in the output array itself, as the originals do.
typedef float DATA_TYPE;

__global__ void gemm_kernel(DATA_TYPE* a, DATA_TYPE* b, DATA_TYPE* c, int NI, int NJ, int NK, DATA_TYPE ALPHA,
                            DATA_TYPE BETA) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < NI) && (j < NJ)) {
        c[i * NJ + j] *= BETA;
        int k;
        for (k = 0; k < NK; k++) {
            c[i * NJ + j] += ALPHA * a[i * NK + k] * b[k * NJ + j];
        }
    }
}

__global__ void atax_kernel1(DATA_TYPE* A, DATA_TYPE* x, DATA_TYPE* tmp, int NX, int NY) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < NX) {
        int j;
        for (j = 0; j < NY; j++) {
            tmp[i] += A[i * NY + j] * x[j];
        }
    }
}

__global__ void atax_kernel2(DATA_TYPE* A, DATA_TYPE* y, DATA_TYPE* tmp, int NX, int NY) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < NY) {
        int i;
        for (i = 0; i < NX; i++) {
            y[j] += A[i * NY + j] * tmp[i];
        }
    }
}

__global__ void bicg_kernel1(DATA_TYPE* A, DATA_TYPE* r, DATA_TYPE* s, int NX, int NY) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < NY) {
        s[j] = 0.0f;
        int i;
        for (i = 0; i < NX; i++) {
            s[j] += A[i * NY + j] * r[i];
        }
    }
}

__global__ void bicg_kernel2(DATA_TYPE* A, DATA_TYPE* p, DATA_TYPE* q, int NX, int NY) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < NX) {
        q[i] = 0.0f;
        int j;
        for (j = 0; j < NY; j++) {
            q[i] += A[i * NY + j] * p[j];
        }
    }
}

__global__ void mvt_kernel1(DATA_TYPE* a, DATA_TYPE* x1, DATA_TYPE* y_1, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        int j;
        for (j = 0; j < N; j++) {
            x1[i] += a[i * N + j] * y_1[j];
        }
    }
}

__global__ void mvt_kernel2(DATA_TYPE* a, DATA_TYPE* x2, DATA_TYPE* y_2, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        int j;
        for (j = 0; j < N; j++) {
            x2[i] += a[j * N + i] * y_2[j];
        }
    }
}

__global__ void gesummv_kernel(DATA_TYPE* a, DATA_TYPE* b, DATA_TYPE* x, DATA_TYPE* y, DATA_TYPE* tmp, int N,
                               DATA_TYPE ALPHA, DATA_TYPE BETA) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        int j;
        for (j = 0; j < N; j++) {
            tmp[i] += a[i * N + j] * x[j];
            y[i] += b[i * N + j] * x[j];
        }
        y[i] = ALPHA * tmp[i] + BETA * y[i];
    }
}

__global__ void syrk_kernel(DATA_TYPE ALPHA, DATA_TYPE BETA, DATA_TYPE* a, DATA_TYPE* c, int N, int M) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < N) && (j < N)) {
        c[i * N + j] *= BETA;
        int k;
        for (k = 0; k < M; k++) {
            c[i * N + j] += ALPHA * a[i * M + k] * a[j * M + k];
        }
    }
}
