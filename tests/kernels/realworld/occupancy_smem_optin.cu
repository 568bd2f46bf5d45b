// Not a model of a public program: an occupancy case written here. Each block stages 64 floats per
// thread in dynamic shared memory, scales them and writes them back. With 64 KB of
// dynamic shared memory per block the launch needs cudaFuncAttributeMaxDynamicSharedMemorySize;
// row_scale_optin is launched after opting in, row_scale_no_optin's host code forgets to.
__global__ void row_scale_optin(const float* in, float* out, int cols) {
    extern __shared__ float rows[];
    int base = blockIdx.x * blockDim.x * 64;
    for (int c = threadIdx.x; c < blockDim.x * 64; c += blockDim.x) rows[c] = in[base + c];
    __syncthreads();
    for (int c = threadIdx.x; c < blockDim.x * 64; c += blockDim.x) out[base + c] = rows[c] * 0.5f;
}

__global__ void row_scale_no_optin(const float* in, float* out, int cols) {
    extern __shared__ float rows[];
    int base = blockIdx.x * blockDim.x * 64;
    for (int c = threadIdx.x; c < blockDim.x * 64; c += blockDim.x) rows[c] = in[base + c];
    __syncthreads();
    for (int c = threadIdx.x; c < blockDim.x * 64; c += blockDim.x) out[base + c] = rows[c] * 0.5f;
}

#ifndef __CUDACC_RTC__
void launch(const float* d_in, float* d_out, int n) {
    const int smem = 256 * 64 * sizeof(float);
    cudaFuncSetAttribute(row_scale_optin, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    row_scale_optin<<<n / (256 * 64), 256, smem>>>(d_in, d_out, 256);
    row_scale_no_optin<<<n / (256 * 64), 256, smem>>>(d_in, d_out, 256);
}
#endif
