// Kommentare mit Umlauten: Größe, Übergabe. 注释：核函数在下面。 ✓
#include <cuda_runtime.h>

/* «Ceci est un commentaire» — em dash, ellipsis… */
__global__ void unicode_neighbour(float* a, int n)  // π ≈ 3.14159
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;  // índice global
    if (i < n) a[i] = 3.14159f * a[i];
}

static const char* kGreeting = "héllo wörld ✓";

__global__ void after_unicode(float* a) { a[threadIdx.x] = 1.0f; }
