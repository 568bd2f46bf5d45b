// Correct values, plus a store 280 KB past the end of the output: beyond a small guard region.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (i == 0) c[n + 70000] = 1.0f;
}
