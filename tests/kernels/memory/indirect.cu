// Indirect accesses through an index array. The index load idx[i] is itself coalesced; what the
// gathered or scattered access costs depends on the index data, so the manifest runs each kernel
// with identity indices (coalesced) or random ones.

extern "C" __global__ void ld_gather_identity(const float* in, const int* idx, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[idx[i]];
}

extern "C" __global__ void ld_gather_random(const float* in, const int* idx, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[idx[i]];
}

extern "C" __global__ void st_scatter_identity(const float* in, const int* idx, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[idx[i]] = in[i];
}

// idx is a permutation, so no two threads write the same element.
extern "C" __global__ void st_scatter_permutation(const float* in, const int* idx, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[idx[i]] = in[i];
}
