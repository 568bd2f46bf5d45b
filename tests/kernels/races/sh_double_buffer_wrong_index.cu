// race-suite: race
// memory: shared
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[2048], float32[512]:zeros, int32=4
// Double buffering with one barrier per iteration, but the buffer index changes every second
// iteration, so iterations 0 and 1 share a buffer.
extern "C" __global__ void sh_double_buffer_wrong_index(const float* x, float* y, int tiles)
{
    __shared__ float buf[2][128];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < tiles; k++) {
        int b = (k / 2) % 2;
        buf[b][t] = x[(blockIdx.x * tiles + k) * 128 + t];  // RACE
        __syncthreads();
        acc += buf[b][127 - t];                             // RACE
    }
    y[blockIdx.x * 128 + t] = acc;
}
