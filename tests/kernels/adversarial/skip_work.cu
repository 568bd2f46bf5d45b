// Skips the work entirely: launches, returns, leaves the output as it found it.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
}
