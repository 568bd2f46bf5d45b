// The block stages the 17 coefficients in shared memory once; each thread then evaluates one point.
#define DEGREE 16

extern "C" __global__ void polynomial(const float *x, const float *coeffs, float *y, int n)
{
    __shared__ float c[DEGREE + 1];
    if (threadIdx.x <= DEGREE)
        c[threadIdx.x] = coeffs[threadIdx.x];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i], acc = 0.0f;
#pragma unroll
    for (int k = DEGREE; k >= 0; k--)
        acc = fmaf(acc, v, c[k]);
    y[i] = acc;
}
