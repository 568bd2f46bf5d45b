// Array-of-structures field access and partial use of vector types, next to the
// structure-of-arrays layout that fixes them.

struct Point3 { float x, y, z; };
struct Point4 { float x, y, z, w; };
struct __align__(16) AlignedPoint4 { float x, y, z, w; };

// One field of a 12-byte struct: lanes are 12 bytes apart.
extern "C" __global__ void ld_aos3_field_x(const Point3* p, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = p[i].x;
}

// All three fields of the 12-byte struct: three 4-byte loads, each 12 bytes apart.
extern "C" __global__ void ld_aos3_all_fields(const Point3* p, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = p[i].x + p[i].y + p[i].z;
}

// One field of a 16-byte struct: lanes are 16 bytes apart.
extern "C" __global__ void ld_aos4_field_y(const Point4* p, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = p[i].y;
}

// A whole 16-byte aligned struct, which the compiler may load as one 16-byte vector.
extern "C" __global__ void ld_aos4_aligned_all_fields(const AlignedPoint4* p, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        AlignedPoint4 q = p[i];
        out[i] = q.x + q.y + q.z + q.w;
    }
}

// The same data as three separate arrays: three coalesced loads.
extern "C" __global__ void ld_soa3_all_fields(const float* x, const float* y, const float* z, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i] + z[i];
}

// Only the .x component of a float4 array: lanes are 16 bytes apart.
extern "C" __global__ void ld_float4_component_x(const float4* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i].x;
}

// float2 stores, coalesced (8 bytes per lane).
extern "C" __global__ void st_float2_coalesced(float2* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = make_float2((float)i, -(float)i);
}
