// Threads past the end of the data leave before the block's barrier.
extern "C" __global__ void return_before_barrier(const float* in, float* out, int n)
{
    __shared__ float buf[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    buf[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = buf[threadIdx.x ^ 1];
}
