// Static, padded, dynamic and aligned-raw shared memory.
__global__ void padded_tile(const float* in, float* out)
{
    __shared__ float tile[32][33];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[(blockIdx.x * 32 + y) * 32 + x];
    __syncthreads();
    out[(blockIdx.x * 32 + x) * 32 + y] = tile[x][y];
}

__global__ void dynamic_reverse(float* data, int n)
{
    extern __shared__ float buffer[];
    int t = threadIdx.x;
    buffer[t] = data[blockIdx.x * blockDim.x + t];
    __syncthreads();
    data[blockIdx.x * blockDim.x + t] = buffer[blockDim.x - 1 - t];
}

__global__ void raw_staging(const float* in, float* out)
{
    extern __shared__ __align__(16) unsigned char raw[];
    float* staged = reinterpret_cast<float*>(raw);
    staged[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = staged[threadIdx.x] * 2.0f;
}

void launch(float* a, float* b, int n)
{
    padded_tile<<<n / 1024, dim3(32, 32)>>>(a, b);
    dynamic_reverse<<<n / 128, 128, 128 * sizeof(float)>>>(a, n);
}
