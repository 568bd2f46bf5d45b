// Device-side classes with member functions, operator overloads, a functor
// template parameter and a kernel with a default argument.
#include <cuda_runtime.h>

struct Vec2 {
    float x, y;
    __host__ __device__ Vec2 operator+(const Vec2& o) const { return {x + o.x, y + o.y}; }
    __host__ __device__ Vec2 operator*(float s) const { return {x * s, y * s}; }
    __device__ float dot(const Vec2& o) const { return x * o.x + y * o.y; }
};

struct Saxpy {
    float a;
    __device__ float operator()(float x, float y) const { return a * x + y; }
};

template <typename Op>
__global__ void binary_map(const float* x, const float* y, float* out, int n, Op op)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = op(x[i], y[i]);
}

__global__ void advance(Vec2* pos, const Vec2* vel, int n, float dt = 0.01f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) pos[i] = pos[i] + vel[i] * dt;
}

void launch(const float* x, const float* y, float* out, int n)
{
    binary_map<<<(n + 127) / 128, 128>>>(x, y, out, n, Saxpy{2.0f});
}
