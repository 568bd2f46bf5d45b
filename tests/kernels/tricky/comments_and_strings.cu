// Kernel-looking text in comments, strings and disabled preprocessor
// branches must not become kernels; line continuations in comments and
// macros must not shift line numbers.
#include <cstdio>

/* __global__ void in_block_comment(float* a) { a[0] = 1; } */
// __global__ void in_line_comment(float* a) { a[0] = 2; }
// a comment that continues onto the next line \
   __global__ void continued_comment(float* a) { a[0] = 3; }

static const char* kTemplate = "__global__ void in_string(float* a) { a[0] = 4; }";
static const char kQuote = '"';

#if 0
__global__ void disabled_by_if0(float* a) { a[0] = 5; }
#endif

#define LONG_MACRO(x) \
    ((x) * 2 + \
     (x) * 3)

__global__ void real_kernel(float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;  // __global__ void nope()
    if (i < n) a[i] = LONG_MACRO(a[i]);  /* "string in comment" */
}

void host_print() { printf("%s %c\n", kTemplate, kQuote); }
