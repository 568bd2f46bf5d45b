// Whether a thread waits at the barrier depends on the value it loaded.
extern "C" __global__ void divergent_barrier_data(const float* in, float* out)
{
    __shared__ float buf[128];
    int t = threadIdx.x;
    float v = in[t];
    buf[t] = v;
    if (v > 0.0f)
        __syncthreads();
    out[t] = buf[t];
}
