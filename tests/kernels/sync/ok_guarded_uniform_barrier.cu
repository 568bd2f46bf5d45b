// The work is guarded per thread, the barrier is not.
extern "C" __global__ void ok_guarded_uniform_barrier(const float* in, float* out, int n)
{
    __shared__ float buf[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    bool active = i < n;
    if (active)
        buf[t] = in[i];
    __syncthreads();
    if (active)
        out[i] = buf[t ^ 1];
}
