// A tile loop with one barrier per iteration: the next store can overwrite a slot still being read.
extern "C" __global__ void race_war_tile_loop(const float* in, float* out, int tiles)
{
    __shared__ float tile[128];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < tiles; ++k) {
        tile[t] = in[k * 128 + t];
        __syncthreads();
        acc += tile[127 - t];
    }
    out[t] = acc;
}
