// Never finishes: spins on a condition the compiler cannot prove false (inputs lie in [-1, 1]).
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile const float *spin = a;
    while (spin[0] < 2.0f) {
    }
    if (i < n) c[i] = a[i] + b[i];
}
