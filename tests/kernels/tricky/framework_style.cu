// The style of large frameworks: a kernel-loop macro, error-check macros
// after launches, class macros without a semicolon, file-scope instantiation
// macros. All macros are defined here, so no syntax errors are expected.
#include <cuda_runtime.h>
#include <cstdio>

#define CUDA_1D_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)
#define CUDA_POST_KERNEL_CHECK \
  do { cudaError_t e = cudaPeekAtLastError(); if (e != cudaSuccess) printf("%s\n", cudaGetErrorString(e)); } while (0)
#define DISABLE_COPY(Class) \
  Class(const Class&) = delete; \
  Class& operator=(const Class&) = delete;
#define GET_BLOCKS(n) (((n) + 511) / 512)
#define NUM_THREADS 512

template <typename Dtype>
__global__ void sigmoid_forward(const int n, const Dtype* in, Dtype* out)
{
  CUDA_1D_KERNEL_LOOP(index, n) {
    out[index] = Dtype(1) / (Dtype(1) + exp(-in[index]));
  }
}

class SigmoidLayer {
 public:
  SigmoidLayer() {}
  void forward(const float* in, float* out, int n) {
    sigmoid_forward<float><<<GET_BLOCKS(n), NUM_THREADS>>>(n, in, out);
    CUDA_POST_KERNEL_CHECK;
  }
 private:
  DISABLE_COPY(SigmoidLayer)
};

#define INSTANTIATE_FORWARD(Dtype) \
  template __global__ void sigmoid_forward<Dtype>(const int, const Dtype*, Dtype*);
INSTANTIATE_FORWARD(double)
