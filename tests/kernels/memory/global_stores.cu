// Global-store patterns. The kernels load nothing: the stored value is computed from the index, so
// the kernel's store counters describe one store pattern and its load counters stay at zero.

extern "C" __global__ void st_u8_coalesced(unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (unsigned char)i;
}

extern "C" __global__ void st_f32_coalesced(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (float)i;
}

extern "C" __global__ void st_f64_coalesced(double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (double)i;
}

extern "C" __global__ void st_float4_coalesced(float4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = make_float4((float)i, 1.0f, 2.0f, 3.0f);
}

extern "C" __global__ void st_stride2(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[2 * i] = (float)i;
}

extern "C" __global__ void st_stride32(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[32 * i] = (float)i;
}

extern "C" __global__ void st_offset_plus1(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i + 1] = (float)i;
}

// All lanes of a block write the same value to the same word.
extern "C" __global__ void st_same_word_per_block(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[blockIdx.x] = 1.0f;
}
