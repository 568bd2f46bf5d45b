// race-suite: race-free
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[2048], float32[512]:zeros, int32=4
// Double buffering with one barrier per iteration: the buffer written in iteration k+1 was last
// read in iteration k-1, before the barrier of iteration k.
extern "C" __global__ void sh_double_buffer_correct(const float* x, float* y, int tiles)
{
    __shared__ float buf[2][128];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < tiles; k++) {
        int b = k % 2;
        buf[b][t] = x[(blockIdx.x * tiles + k) * 128 + t];
        __syncthreads();
        acc += buf[b][127 - t];
    }
    y[blockIdx.x * 128 + t] = acc;
}
