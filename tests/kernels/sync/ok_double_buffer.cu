// Double buffering with one barrier per iteration: consecutive stores go to different halves.
extern "C" __global__ void ok_double_buffer(const float* in, float* out, int tiles)
{
    __shared__ float buf[2][128];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < tiles; ++k) {
        buf[k & 1][t] = in[k * 128 + t];
        __syncthreads();
        acc += buf[k & 1][127 - t];
    }
    out[t] = acc;
}
