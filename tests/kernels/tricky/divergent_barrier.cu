// A deliberate hazard: __syncthreads() reached by only some threads of a
// block (undefined behaviour; hangs or corrupts on real hardware).
__global__ void divergent_sync(float* a, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = a[blockIdx.x * 256 + t];
    if (t < 128) {
        __syncthreads();
        a[blockIdx.x * 256 + t] = s[255 - t];
    }
}
