// Smooths a shared row in place: each thread overwrites a slot its neighbours read.
extern "C" __global__ void race_inplace_stencil(const float* in, float* out)
{
    __shared__ float row[130];
    int t = threadIdx.x;
    row[t + 1] = in[t];
    if (t == 0) {
        row[0] = 0.0f;
        row[129] = 0.0f;
    }
    __syncthreads();
    row[t + 1] = 0.5f * (row[t] + row[t + 2]);
    __syncthreads();
    out[t] = row[t + 1];
}
