// Global-load patterns. Each kernel reads through exactly one load pattern and writes its result
// with a plain coalesced store out[i], so the kernel's load counters describe that pattern alone.

// Coalesced loads of 1, 2, 4, 8 and 16 bytes per thread.
extern "C" __global__ void ld_u8_coalesced(const unsigned char* in, unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

extern "C" __global__ void ld_u16_coalesced(const unsigned short* in, unsigned short* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

extern "C" __global__ void ld_f32_coalesced(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

extern "C" __global__ void ld_f64_coalesced(const double* in, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

extern "C" __global__ void ld_float2_coalesced(const float2* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 v = in[i];
        out[i] = v.x + v.y;
    }
}

extern "C" __global__ void ld_float4_coalesced(const float4* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i];
        out[i] = v.x + v.y + v.z + v.w;
    }
}

extern "C" __global__ void ld_int4_coalesced(const int4* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int4 v = in[i];
        out[i] = v.x ^ v.y ^ v.z ^ v.w;
    }
}

// Every lane of the warp reads the same word.
extern "C" __global__ void ld_broadcast_first(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[0];
}

// Same word for the whole block, a different word per block.
extern "C" __global__ void ld_broadcast_per_block(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[blockIdx.x];
}

// Constant strides between neighbouring lanes, in floats.
extern "C" __global__ void ld_stride2(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[2 * i];
}

extern "C" __global__ void ld_stride3(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[3 * i];
}

extern "C" __global__ void ld_stride4(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[4 * i];
}

extern "C" __global__ void ld_stride8(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[8 * i];
}

extern "C" __global__ void ld_stride32(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[32 * i];
}

extern "C" __global__ void ld_stride1024(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[1024 * i];
}

// One float past a 128-byte boundary: each warp straddles five sectors.
extern "C" __global__ void ld_offset_plus1(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i + 1];
}
