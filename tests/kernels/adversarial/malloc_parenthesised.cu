// Takes device heap memory (which outlives the launch) through a parenthesised name.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float *stash = (float *)(malloc)(16);
    if (i < n) c[i] = a[i] + b[i];
    (free)(stash);
}
