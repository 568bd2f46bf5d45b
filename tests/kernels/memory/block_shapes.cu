// Coalescing with block shapes other than a flat 1-D block: 2-D blocks narrower than a warp,
// a 3-D block, and 1-D blocks whose size is not a multiple of 32 (partial last warp).
// Each kernel copies in[k] to out[k] with the same index, so loads and stores share one pattern.

// 16x16 block over a width-w row-major image: a warp covers two rows of 16 floats.
extern "C" __global__ void ld_block16x16_copy(const float* in, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = in[y * w + x];
}

// 8x8 block: a warp covers four rows of 8 floats (one sector each).
extern "C" __global__ void ld_block8x8_copy(const float* in, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = in[y * w + x];
}

// 4x32 block: a warp covers eight rows of only 4 floats (half a sector each).
extern "C" __global__ void ld_block4x32_copy(const float* in, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = in[y * w + x];
}

// 8x8x4 block over an nx*ny*nz volume stored x-fastest.
extern "C" __global__ void ld_block8x8x4_volume(const float* in, float* out, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz) {
        int k = (z * ny + y) * nx + x;
        out[k] = in[k];
    }
}

// Launched with 48 threads per block: warps of 32 and 16 lanes.
extern "C" __global__ void ld_partial_warp_block48(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

// Launched with 100 threads per block: three full warps and one of 4 lanes; every other block
// starts 16 bytes into a sector.
extern "C" __global__ void ld_partial_warp_block100(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
