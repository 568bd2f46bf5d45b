// Sends the compiler into exponential work (2^16 distinct inlined calls): minutes of compile time.
// Must end as a compile_error after the compile time limit, with the caller and the worker pool fine.
template <int N> struct Blow {
    __device__ __forceinline__ static float f(float x) { return Blow<N - 1>::f(x * 1.5f + 0.25f) - Blow<N - 1>::f(x * 0.75f + 1.0f); }
};
template <> struct Blow<0> {
    __device__ __forceinline__ static float f(float x) { return x; }
};
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] + 0.0f * Blow<16>::f(a[i]);
}
