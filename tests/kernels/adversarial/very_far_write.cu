// Correct values, plus a store 64 MB past the end of the output: past any canary region, into
// whatever lies there (with guard pages: an unmapped address, a fault).
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (i == 0) c[n + (16 << 20)] = 1.0f;
}
