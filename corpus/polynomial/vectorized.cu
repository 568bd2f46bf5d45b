// Four points per thread through a float4 load; the coefficients live in registers and the four
// Horner chains run interleaved, which hides the fma latency.
#define DEGREE 16

__device__ __forceinline__ float horner(const float *c, float v)
{
    float acc = 0.0f;
#pragma unroll
    for (int k = DEGREE; k >= 0; k--)
        acc = fmaf(acc, v, c[k]);
    return acc;
}

extern "C" __global__ void polynomial(const float *__restrict__ x, const float *__restrict__ coeffs,
                                      float *__restrict__ y, int n)
{
    float c[DEGREE + 1];
#pragma unroll
    for (int k = 0; k <= DEGREE; k++)
        c[k] = __ldg(&coeffs[k]);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int quads = n / 4;
    if (i < quads) {
        float4 v = reinterpret_cast<const float4 *>(x)[i];
        reinterpret_cast<float4 *>(y)[i] =
            make_float4(horner(c, v.x), horner(c, v.y), horner(c, v.z), horner(c, v.w));
    }
    int tail = quads * 4 + i;
    if (i < n % 4)
        y[tail] = horner(c, x[tail]);
}

/* kernelscope:plan
[[launch]]
kernel = "polynomial"
grid = ["ceil_div(n, 1024)"]
block = ["256"]
args = ["x", "coeffs", "y", "n"]
*/
