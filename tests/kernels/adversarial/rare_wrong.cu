// Wrong on about one input set in ten (when a[0] > 0.8): a few verification trials often miss it,
// the timed repeats, each on fresh inputs checked against the reference, do not.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[0] > 0.8f ? a[i] - b[i] : a[i] + b[i];
}
