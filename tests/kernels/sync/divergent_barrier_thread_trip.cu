// Barriers inside a loop whose trip count depends on threadIdx when n is not a multiple of 64.
extern "C" __global__ void divergent_barrier_thread_trip(const float* in, float* out, int n)
{
    __shared__ float buf[64];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int i = t; i < n; i += 64) {
        buf[t] = in[i];
        __syncthreads();
        acc += buf[63 - t];
        __syncthreads();
    }
    out[t] = acc;
}
