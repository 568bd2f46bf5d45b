// Reads the global timer in inline PTX, its name split over two string literals.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long now;
    asm volatile("mov.u64 %0, %%glob" "altimer;" : "=l"(now));
    if (i < n) c[i] = a[i] + b[i] + 0.0f * (float)now;
}
