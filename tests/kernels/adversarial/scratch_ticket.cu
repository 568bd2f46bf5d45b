// Honest: each block takes its tile from a grid-wide ticket counter (dynamic tile order, as in
// decoupled look-back scans). The counter is declared scratch (spec_scratch.toml), zeroed by the
// runner before every launch, so the kernel never has to reset it.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, unsigned int *ticket, int n) {
    __shared__ unsigned int tile;
    if (threadIdx.x == 0) tile = atomicAdd(ticket, 1u);
    __syncthreads();
    int i = tile * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
