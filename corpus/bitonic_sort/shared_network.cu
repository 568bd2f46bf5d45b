// The row is loaded once into shared memory, the whole network runs there, and the sorted row is
// written back once.
extern "C" __global__ void bitonic_sort(const float *x, float *out, int rows, int len)
{
    __shared__ float v[1024];
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
    out[(long)blockIdx.x * len + i] = v[i];
}
