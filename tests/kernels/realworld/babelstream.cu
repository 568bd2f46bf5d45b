// Models BabelStream (UoB-HPC/BabelStream, CUDA back end), written here from the benchmark's
// published description: the STREAM kernels copy (c = a), mul (b = s*c), add (c = a + b),
// triad (a = b + s*c) and nstream (a += b + s*c), one element per thread with no bounds check
// (the array length is a multiple of the block), and dot, a grid-stride sum of a*b reduced in
// shared memory per block. The kernels are templated on the element type; the host class is
// instantiated for double, BabelStream's default precision.
#define TBSIZE 1024
#define DOT_NUM_BLOCKS 528

template <class T>
__global__ void copy_kernel(const T* a, T* c) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    c[i] = a[i];
}

template <class T>
__global__ void mul_kernel(T* b, const T* c, T scalar) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    b[i] = scalar * c[i];
}

template <class T>
__global__ void add_kernel(const T* a, const T* b, T* c) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    c[i] = a[i] + b[i];
}

template <class T>
__global__ void triad_kernel(T* a, const T* b, const T* c, T scalar) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    a[i] = b[i] + scalar * c[i];
}

template <class T>
__global__ void nstream_kernel(T* a, const T* b, const T* c, T scalar) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    a[i] += b[i] + scalar * c[i];
}

template <class T>
__global__ void dot_kernel(const T* a, const T* b, T* sum, int array_size) {
    __shared__ T tb_sum[TBSIZE];
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    const int local_i = threadIdx.x;
    tb_sum[local_i] = 0.0;
    for (; i < array_size; i += blockDim.x * gridDim.x)
        tb_sum[local_i] += a[i] * b[i];
    for (int offset = blockDim.x / 2; offset > 0; offset /= 2) {
        __syncthreads();
        if (local_i < offset)
            tb_sum[local_i] += tb_sum[local_i + offset];
    }
    if (local_i == 0)
        sum[blockIdx.x] = tb_sum[local_i];
}

#ifndef __CUDACC_RTC__
template <class T>
class CUDAStream {
  public:
    CUDAStream(int size) : array_size(size) {}
    void copy();
    void mul();
    void add();
    void triad();
    void nstream();
    void dot();

  private:
    int array_size;
    T* d_a;
    T* d_b;
    T* d_c;
    T* d_sum;
    T startScalar = 0.4;
};

template <class T>
void CUDAStream<T>::copy() { copy_kernel<<<array_size / TBSIZE, TBSIZE>>>(d_a, d_c); }
template <class T>
void CUDAStream<T>::mul() { mul_kernel<<<array_size / TBSIZE, TBSIZE>>>(d_b, d_c, startScalar); }
template <class T>
void CUDAStream<T>::add() { add_kernel<<<array_size / TBSIZE, TBSIZE>>>(d_a, d_b, d_c); }
template <class T>
void CUDAStream<T>::triad() { triad_kernel<<<array_size / TBSIZE, TBSIZE>>>(d_a, d_b, d_c, startScalar); }
template <class T>
void CUDAStream<T>::nstream() { nstream_kernel<<<array_size / TBSIZE, TBSIZE>>>(d_a, d_b, d_c, startScalar); }
template <class T>
void CUDAStream<T>::dot() { dot_kernel<<<DOT_NUM_BLOCKS, TBSIZE>>>(d_a, d_b, d_sum, array_size); }

template class CUDAStream<double>;
#endif
