// Global atomics. An atomicAdd whose result is unused compiles to a reduction (RED), one whose
// result is used to an atomic (ATOM); ncu counts them under op_red and op_atom respectively.

extern "C" __global__ void atom_add_coalesced_noreturn(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&out[i], 1.0f);
}

extern "C" __global__ void atom_add_coalesced_return(float* out, float* old, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) old[i] = atomicAdd(&out[i], 1.0f);
}

// Every thread adds to one float.
extern "C" __global__ void atom_add_single_float(float* total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, 1.0f);
}

// Every thread increments one integer counter (a candidate for warp-aggregated atomics).
extern "C" __global__ void atom_inc_single_int(int* counter, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(counter, 1);
}

// Histogram of random bins in [0, bins): the bin load is coalesced, the increments scattered.
extern "C" __global__ void atom_histogram_random(const int* bin, int* hist, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[bin[i]], 1);
}
