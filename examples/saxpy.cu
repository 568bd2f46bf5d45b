// saxpy.cu: the smallest useful kernel, y = a * x + y, in two forms.
//
// Try:   kernelscope analyze examples/saxpy.cu
//        kernelscope analyze --format json --arg n=1048576 examples/saxpy.cu
//
// What to look for in the report:
//   * saxpy: every load and store is coalesced. A warp reads 32 consecutive floats,
//     128 bytes, which is 4 sectors of 32 bytes per request: the best a 4-byte access can do.
//     Arithmetic intensity is 2 FLOPs (one FMA) per 12 bytes moved, so the kernel is
//     memory-bound on every GPU; its speed is set by DRAM bandwidth alone.
//   * saxpy_vec4: the same work with 16-byte float4 accesses; each request now touches 16
//     sectors, and the kernel issues a quarter as many memory instructions.
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}

// n4 counts float4 elements; the caller handles any tail of fewer than four floats.
__global__ void saxpy_vec4(int n4, float a, const float4* __restrict__ x, float4* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 xv = x[i];
        float4 yv = y[i];
        yv.x = a * xv.x + yv.x;
        yv.y = a * xv.y + yv.y;
        yv.z = a * xv.z + yv.z;
        yv.w = a * xv.w + yv.w;
        y[i] = yv;
    }
}

// The launch sites tell kernelscope the block shape: no --block option needed.
void run_saxpy(int n, float a, const float* x, float* y, cudaStream_t stream)
{
    const int threads = 256;
    saxpy<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, a, x, y);
    int n4 = n / 4;
    saxpy_vec4<<<(n4 + threads - 1) / threads, threads, 0, stream>>>(
        n4, a, reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(y));
}
