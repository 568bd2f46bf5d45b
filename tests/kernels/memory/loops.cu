// Accesses inside loops: grid-stride loops, two ways to coarsen a thread's work, and a thread
// walking along a matrix row versus down a column.

extern "C" __global__ void ld_grid_stride_copy(const float* in, float* out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = in[i];
}

// Each thread handles 4 elements spaced a block apart: every access stays coalesced.
extern "C" __global__ void ld_coarsen4_cyclic(const float* in, float* out, int n) {
    int base = blockIdx.x * blockDim.x * 4 + threadIdx.x;
    for (int k = 0; k < 4; ++k) {
        int i = base + k * blockDim.x;
        if (i < n) out[i] = in[i];
    }
}

// Each thread handles 4 neighbouring elements: lanes are 16 bytes apart in every access.
extern "C" __global__ void ld_coarsen4_blocked(const float* in, float* out, int n) {
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    for (int k = 0; k < 4; ++k) {
        int i = base + k;
        if (i < n) out[i] = in[i] * 2.0f;
    }
}

// One thread per row of a rows x cols row-major matrix, summing its row: lanes are a row apart.
extern "C" __global__ void ld_row_per_thread_sum(const float* m, float* out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += m[r * cols + c];
    out[r] = s;
}

// One thread per column of the same matrix: lanes are neighbours in every iteration.
extern "C" __global__ void ld_column_per_thread_sum(const float* m, float* out, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float s = 0.0f;
    for (int r = 0; r < rows; ++r) s += m[r * cols + c];
    out[c] = s;
}
