// Named barriers: ptxas counts the highest barrier id used plus one.
__global__ void named_barrier_4(float* data) {
    data[threadIdx.x] += 1.0f;
    asm volatile("bar.sync 3, %0;" :: "r"(blockDim.x) : "memory");
    data[threadIdx.x] *= 2.0f;
}

__global__ void named_barrier_16(float* data) {
    data[threadIdx.x] += 1.0f;
    asm volatile("bar.sync 15, %0;" :: "r"(blockDim.x) : "memory");
    data[threadIdx.x] *= 2.0f;
}

__global__ void named_barrier_12(float* data) {
    data[threadIdx.x] += 1.0f;
    asm volatile("bar.sync 11, %0;" :: "r"(blockDim.x) : "memory");
    data[threadIdx.x] *= 2.0f;
}

__global__ void no_barrier(float* data) {
    data[threadIdx.x] = data[threadIdx.x] * 3.0f + 1.0f;
}
