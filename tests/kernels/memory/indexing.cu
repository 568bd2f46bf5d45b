// The same few access patterns written in the ways real kernels spell indices: helper functions,
// macros, template constants, unsigned and 64-bit indices, pointer arithmetic and a leading
// dimension passed at run time.

#define IDX(r, c, ld) ((r) * (ld) + (c))

__device__ int flat_index(int row, int col, int ld) { return row * ld + col; }

template <int STRIDE>
__device__ float load_strided(const float* a, int i) { return a[i * STRIDE]; }

// Helper-function index with x as the column: coalesced with a 32x8 block.
extern "C" __global__ void ld_helper_index_rowmajor(const float* in, float* out, int ld, int rows) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < ld && y < rows) out[flat_index(y, x, ld)] = in[flat_index(y, x, ld)];
}

// Helper-function index with x as the row: lanes are ld floats apart on the load.
extern "C" __global__ void ld_helper_index_colmajor(const float* in, float* out, int ld, int rows) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < rows && y < ld) out[flat_index(y, x, rows)] = in[flat_index(x, y, ld)];
}

// Macro index, coalesced with a 32x8 block.
extern "C" __global__ void ld_macro_index(const float* in, float* out, int ld, int rows) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < ld && y < rows) out[IDX(y, x, ld)] = in[IDX(y, x, ld)];
}

// Template constant stride of 6 floats (24 bytes between lanes).
extern "C" __global__ void ld_template_stride6(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = load_strided<6>(in, i);
}

extern "C" __global__ void ld_unsigned_index(const float* in, float* out, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

// 64-bit index arithmetic with a stride of 2.
extern "C" __global__ void ld_int64_index_stride2(const float* in, float* out, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[2 * i];
}

// Pointers advanced to the block's first element, then indexed by threadIdx.x.
extern "C" __global__ void ld_pointer_block_base(const float* in, float* out, int n) {
    const float* src = in + blockIdx.x * blockDim.x;
    float* dst = out + blockIdx.x * blockDim.x;
    if (blockIdx.x * blockDim.x + threadIdx.x < n) dst[threadIdx.x] = src[threadIdx.x];
}

// Input pointer moved by a run-time element offset (3 floats: 12 bytes off sector alignment).
extern "C" __global__ void ld_pointer_offset(const float* in, float* out, int n, int offset) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    in += offset;
    if (i < n) out[i] = in[i];
}

// Row-major matrix with a run-time leading dimension, one row per blockIdx.y: coalesced.
extern "C" __global__ void ld_symbolic_ld_row(const float* m, float* out, int ld, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y;
    if (c < cols) out[r * cols + c] = m[r * ld + c];
}

// One thread per row, reading the row's first element: lanes are ld floats apart.
extern "C" __global__ void ld_symbolic_ld_column(const float* m, float* out, int ld, int rows) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) out[r] = m[r * ld];
}
