// One block per row, one thread per element; the network runs in place on the output row in
// global memory with a block barrier between steps.
extern "C" __global__ void bitonic_sort(const float *x, float *out, int rows, int len)
{
    float *v = out + (long)blockIdx.x * len;
    int i = threadIdx.x;
    v[i] = x[(long)blockIdx.x * len + i];
    __syncthreads();
    for (int k = 2; k <= len; k *= 2)
        for (int j = k / 2; j > 0; j /= 2) {
            int partner = i ^ j;
            if (partner > i) {
                bool ascending = (i & k) == 0;
                float a = v[i], b = v[partner];
                if ((a > b) == ascending) {
                    v[i] = b;
                    v[partner] = a;
                }
            }
            __syncthreads();
        }
}
