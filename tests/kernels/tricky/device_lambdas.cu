// Extended device lambdas (nvcc --extended-lambda) inside a kernel and
// passed to a templated kernel from the host.
#include <cuda_runtime.h>

template <typename F>
__global__ void apply(float* x, int n, F f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = f(x[i]);
}

__global__ void map_with_lambda(const float* in, float* out, int n)
{
    auto square_plus = [=] __device__ (float v) { return v * v + 1.0f; };
    auto clamp = [](float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); };
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = clamp(square_plus(in[i]), 0.0f, 100.0f);
    }
}

void run(float* x, int n)
{
    float k = 3.0f;
    apply<<<(n + 255) / 256, 256>>>(x, n, [=] __device__ (float v) { return k * v; });
}
