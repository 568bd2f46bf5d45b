// Models SHOC's Triad (level-1 benchmark), written here from its description: C = A + s * B over
// blocks of 128 threads, one element per thread, no bounds check.
__global__ void triad(float* A, float* B, float* C, float s) {
    int gid = threadIdx.x + (blockIdx.x * blockDim.x);
    C[gid] = A[gid] + s * B[gid];
}
