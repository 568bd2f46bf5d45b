// Brings its own host code: rejected before compilation.
__global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

void launch(const float *a, const float *b, float *c, int n) {
    vector_add<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
