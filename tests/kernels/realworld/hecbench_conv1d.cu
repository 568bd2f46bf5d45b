// Models HeCBench's convolution1D, written here from its description of the naive kernel: each
// thread sums MASK_WIDTH products of the input around its element with the mask, skipping the
// terms outside the input; templated on the element type, instantiated by the host for float.
#define MASK_WIDTH 9

template <typename T>
__global__ void conv1d(const T* __restrict__ mask, const T* __restrict__ in, T* __restrict__ out, const int input_width) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T s = 0;
    int start = i - MASK_WIDTH / 2;
    for (int j = 0; j < MASK_WIDTH; j++) {
        if (start + j >= 0 && start + j < input_width) {
            s += in[start + j] * mask[j];
        }
    }
    out[i] = s;
}

#ifndef __CUDACC_RTC__
void run(float* d_mask, float* d_in, float* d_out, int n) {
    conv1d<float><<<n / 256, 256>>>(d_mask, d_in, d_out, n);
}
#endif
