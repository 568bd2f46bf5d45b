// Three-point stencil: interior and halo loaded by different threads, one barrier, then reads.
extern "C" __global__ void ok_stencil_halo(const float* in, float* out, int n)
{
    __shared__ float row[130];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    row[t + 1] = in[i];
    if (t == 0)
        row[0] = i > 0 ? in[i - 1] : 0.0f;
    if (t == blockDim.x - 1)
        row[t + 2] = i + 1 < n ? in[i + 1] : 0.0f;
    __syncthreads();
    out[i] = 0.25f * row[t] + 0.5f * row[t + 1] + 0.25f * row[t + 2];
}
