// Models NVIDIA cuda-samples' reduction, written here from its description (Mark Harris's
// "Optimizing Parallel Reduction in CUDA" steps): reduce0 (interleaved addressing with a modulo
// test), reduce2 (sequential addressing), reduce3 (first add while loading two elements) and
// reduce6 (a grid-stride loop with two loads per trip when n is a power of two, then a shared
// tree and warp shuffles). Dynamic shared memory through the SharedMemory<T> helper; the host
// wrapper is instantiated for float.
template <class T>
struct SharedMemory {
    __device__ inline operator T*() {
        extern __shared__ int __smem[];
        return (T*)__smem;
    }
    __device__ inline operator const T*() const {
        extern __shared__ int __smem[];
        return (T*)__smem;
    }
};

template <class T>
__global__ void reduce0(T* g_idata, T* g_odata, unsigned int n) {
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if ((tid % (2 * s)) == 0) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template <class T>
__global__ void reduce2(T* g_idata, T* g_odata, unsigned int n) {
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template <class T>
__global__ void reduce3(T* g_idata, T* g_odata, unsigned int n) {
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
    sdata[tid] = mySum;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] = mySum = mySum + sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = mySum;
}

template <class T, unsigned int blockSize, bool nIsPow2>
__global__ void reduce6(T* g_idata, T* g_odata, unsigned int n) {
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int gridSize = blockSize * gridDim.x;
    T mySum = 0;
    if (nIsPow2) {
        unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x;
        gridSize = gridSize << 1;
        while (i < n) {
            mySum += g_idata[i];
            if ((i + blockSize) < n) {
                mySum += g_idata[i + blockSize];
            }
            i += gridSize;
        }
    } else {
        unsigned int i = blockIdx.x * blockSize + threadIdx.x;
        while (i < n) {
            mySum += g_idata[i];
            i += gridSize;
        }
    }
    sdata[tid] = mySum;
    __syncthreads();
    if ((blockSize >= 512) && (tid < 256)) {
        sdata[tid] = mySum = mySum + sdata[tid + 256];
    }
    __syncthreads();
    if ((blockSize >= 256) && (tid < 128)) {
        sdata[tid] = mySum = mySum + sdata[tid + 128];
    }
    __syncthreads();
    if ((blockSize >= 128) && (tid < 64)) {
        sdata[tid] = mySum = mySum + sdata[tid + 64];
    }
    __syncthreads();
    if (tid < 32) {
        if (blockSize >= 64) mySum += sdata[tid + 32];
        for (int offset = warpSize / 2; offset > 0; offset /= 2) {
            mySum += __shfl_down_sync(0xffffffff, mySum, offset);
        }
    }
    if (tid == 0) g_odata[blockIdx.x] = mySum;
}

#ifndef __CUDACC_RTC__
template <class T>
void reduce(int size, int threads, int blocks, T* d_idata, T* d_odata) {
    int smemSize = threads * sizeof(T);
    reduce0<T><<<blocks, threads, smemSize>>>(d_idata, d_odata, size);
    reduce2<T><<<blocks, threads, smemSize>>>(d_idata, d_odata, size);
    reduce3<T><<<blocks / 2, threads, smemSize>>>(d_idata, d_odata, size);
    reduce6<T, 256, true><<<64, 256, smemSize>>>(d_idata, d_odata, size);
}

template void reduce<float>(int size, int threads, int blocks, float* d_idata, float* d_odata);
#endif
