// Includes a file of its own choosing: anything the compiler can read (a local helper here, or a
// file whose contents then show up in the compile log).
#include "helpers.h"
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
