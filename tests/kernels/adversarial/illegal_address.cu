// Stores far outside any allocation: an illegal address error that poisons the CUDA context.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i + (1LL << 40) / sizeof(float)] = a[i] + b[i];
}
