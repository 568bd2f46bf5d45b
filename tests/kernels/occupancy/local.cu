// Local memory: a dynamically indexed array lives on the stack; extern shared memory is sized at launch.
__global__ void local_histogram(const int* keys, int* out, int n) {
    int counts[48];
    for (int k = 0; k < 48; ++k) counts[k] = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        counts[keys[i] % 48]++;
    for (int k = 0; k < 48; ++k) atomicAdd(&out[k], counts[k]);
}

__global__ void dynamic_and_static(const float* in, float* out, int n) {
    extern __shared__ float dynamic_buffer[];
    __shared__ float fixed[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    dynamic_buffer[threadIdx.x] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < 64) fixed[threadIdx.x] = 1.0f;
    __syncthreads();
    if (i < n) out[i] = dynamic_buffer[blockDim.x - 1 - threadIdx.x] * fixed[threadIdx.x % 64];
}
