// One output per thread, nine coalesced (and mostly L1-hitting) global loads per output.
#define RADIUS 4

extern "C" __global__ void stencil_1d(const float *x, const float *w, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = 0.0f;
#pragma unroll
    for (int k = -RADIUS; k <= RADIUS; k++)
        if (i + k >= 0 && i + k < n)
            acc += w[k + RADIUS] * x[i + k];
    out[i] = acc;
}
