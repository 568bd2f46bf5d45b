// Statement-like macros that the source uses without a trailing semicolon,
// and others that carry their own.
#define CUDA_KERNEL_LOOP(i, n) \
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)
#define BARRIER() __syncthreads();
#define RETURN_IF_OUT(i, n) if ((i) >= (n)) return;
#define SWAP(a, b) do { float t_ = (a); (a) = (b); (b) = t_; } while (0)

__global__ void relu_forward(const float* in, float* out, int n)
{
    CUDA_KERNEL_LOOP(index, n) {
        out[index] = in[index] > 0 ? in[index] : 0;
    }
}

__global__ void reverse_block(float* data)
{
    __shared__ float tile[256];
    int t = threadIdx.x;
    tile[t] = data[blockIdx.x * 256 + t];
    BARRIER()
    data[blockIdx.x * 256 + t] = tile[255 - t];
}

__global__ void pairwise_swap(float* a, float* b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    RETURN_IF_OUT(i, n)
    float x = a[i], y = b[i];
    SWAP(x, y);
    a[i] = x;
    b[i] = y;
}
