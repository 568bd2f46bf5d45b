// race-suite: race
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], float32[64]:zeros
// Eight threads increment each bin with a plain read-modify-write instead of an atomic.
extern "C" __global__ void sh_plain_histogram(const float* x, float* y)
{
    __shared__ float hist[16];
    int t = threadIdx.x;
    if (t < 16) hist[t] = 0.0f;
    __syncthreads();
    hist[t % 16] += x[blockIdx.x * 128 + t] > 0.0f ? 1.0f : 0.0f;     // RACE
    __syncthreads();
    if (t < 16) y[blockIdx.x * 16 + t] = hist[t];
}
