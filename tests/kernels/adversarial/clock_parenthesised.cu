// Reads the clock without writing "clock64(": a parenthesised name is still a call.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long started = (clock64)();
    if (i < n) c[i] = a[i] + b[i] + 0.0f * (float)started;
}
