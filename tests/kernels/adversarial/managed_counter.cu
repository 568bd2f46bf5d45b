// Counts its launches in a __managed__ variable and stops working after the third: state that
// outlives a launch, whichever memory it lives in.
__managed__ unsigned int launches_seen = 0;
__device__ unsigned int blocks_done = 0;

extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
    if (*(volatile unsigned int *)&launches_seen >= 3) return;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0 && atomicAdd(&blocks_done, 1) + 1 == gridDim.x) {
        blocks_done = 0;
        launches_seen += 1;
    }
}
