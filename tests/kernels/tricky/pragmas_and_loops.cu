// Loop pragmas: #pragma unroll with and without a count, _Pragma inside a
// macro, nested loops whose bounds are template and macro constants.
#define K_STEPS 8
#define UNROLL_ALL _Pragma("unroll")

template <int ROWS>
__global__ void small_matvec(const float* __restrict__ m, const float* __restrict__ v,
                             float* __restrict__ y, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float acc = 0.0f;
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
#pragma unroll 4
        for (int k = 0; k < K_STEPS; ++k)
            acc += m[(r * K_STEPS + k) * cols + c] * v[r * K_STEPS + k];
    }
    y[c] = acc;
}

__global__ void macro_pragma(float* a)
{
    float sum = 0.0f;
    UNROLL_ALL
    for (int k = 0; k < 4; ++k)
        sum += a[k * blockDim.x + threadIdx.x];
    a[threadIdx.x] = sum;
}

template __global__ void small_matvec<8>(const float*, const float*, float*, int);
