// Kernels inside named, nested and anonymous namespaces; a namespace alias;
// namespace braces opened and closed by macros.
#define BEGIN_NAMESPACE(name) namespace name {
#define END_NAMESPACE }

namespace ops {
namespace detail {

__global__ void gelu(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
    }
}

}  // namespace detail
}  // namespace ops

namespace {
__global__ void hidden(float* a) { a[threadIdx.x] = 0.0f; }
}

BEGIN_NAMESPACE(fused)
__global__ void bias_relu(float* x, const float* bias, int n, int c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = fmaxf(x[i] + bias[i % c], 0.0f);
}
END_NAMESPACE

namespace od = ops::detail;
