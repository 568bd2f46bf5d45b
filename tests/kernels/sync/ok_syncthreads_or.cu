// Every thread votes in __syncthreads_or.
extern "C" __global__ void ok_syncthreads_or(const float* in, float* out)
{
    int t = threadIdx.x;
    float v = in[blockIdx.x * blockDim.x + t];
    int any_negative = __syncthreads_or(v < 0.0f);
    out[blockIdx.x * blockDim.x + t] = any_negative ? -v : v;
}
