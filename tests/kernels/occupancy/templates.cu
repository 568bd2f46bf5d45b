// A block reduction whose shared array and unrolling depend on template arguments.
template <int BLOCK, typename T>
__global__ void block_reduce(const T* in, T* out, int n) {
    __shared__ T partial[BLOCK];
    T sum = 0;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) sum += in[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
#pragma unroll
    for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
template __global__ void block_reduce<128, float>(const float*, float*, int);
template __global__ void block_reduce<256, float>(const float*, float*, int);
template __global__ void block_reduce<1024, double>(const double*, double*, int);

namespace stencil {
template <int RADIUS>
__global__ void smooth(const float* in, float* out, int n) {
    __shared__ float halo[256 + 2 * RADIUS];
    int g = blockIdx.x * 256 + threadIdx.x;
    halo[threadIdx.x + RADIUS] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < RADIUS) {
        halo[threadIdx.x] = g >= RADIUS ? in[g - RADIUS] : 0.0f;
        halo[threadIdx.x + 256 + RADIUS] = g + 256 < n ? in[g + 256] : 0.0f;
    }
    __syncthreads();
    float s = 0.0f;
#pragma unroll
    for (int k = -RADIUS; k <= RADIUS; ++k) s += halo[threadIdx.x + RADIUS + k];
    if (g < n) out[g] = s / (2 * RADIUS + 1);
}
template __global__ void smooth<3>(const float*, float*, int);
template __global__ void smooth<16>(const float*, float*, int);
}  // namespace stencil
