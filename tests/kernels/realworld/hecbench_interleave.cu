// Models HeCBench's interleave (array of structures against structure of arrays), written here from
// its description: each thread adds every field of its record to an accumulator record, once for
// an array of 8-field int structs (lanes a struct apart) and once for eight separate arrays held
// in one struct of pointers-like layout (lanes adjacent).
#define NUM_ELEMENTS 4096

typedef struct {
    unsigned int s0, s1, s2, s3, s4, s5, s6, s7;
} INTERLEAVED_T;

__global__ void add_kernel_interleaved(INTERLEAVED_T* const dest_ptr, const INTERLEAVED_T* const src_ptr,
                                       const unsigned int iter, const unsigned int num_elements) {
    const unsigned int tid = (blockIdx.x * blockDim.x) + threadIdx.x;
    if (tid < num_elements) {
        for (unsigned int i = 0; i < iter; i++) {
            dest_ptr[tid].s0 += src_ptr[tid].s0;
            dest_ptr[tid].s1 += src_ptr[tid].s1;
            dest_ptr[tid].s2 += src_ptr[tid].s2;
            dest_ptr[tid].s3 += src_ptr[tid].s3;
            dest_ptr[tid].s4 += src_ptr[tid].s4;
            dest_ptr[tid].s5 += src_ptr[tid].s5;
            dest_ptr[tid].s6 += src_ptr[tid].s6;
            dest_ptr[tid].s7 += src_ptr[tid].s7;
        }
    }
}

typedef struct {
    unsigned int s0[NUM_ELEMENTS];
    unsigned int s1[NUM_ELEMENTS];
    unsigned int s2[NUM_ELEMENTS];
    unsigned int s3[NUM_ELEMENTS];
    unsigned int s4[NUM_ELEMENTS];
    unsigned int s5[NUM_ELEMENTS];
    unsigned int s6[NUM_ELEMENTS];
    unsigned int s7[NUM_ELEMENTS];
} NON_INTERLEAVED_T;

__global__ void add_kernel_non_interleaved(NON_INTERLEAVED_T* const dest_ptr, const NON_INTERLEAVED_T* const src_ptr,
                                           const unsigned int iter, const unsigned int num_elements) {
    const unsigned int tid = (blockIdx.x * blockDim.x) + threadIdx.x;
    if (tid < num_elements) {
        for (unsigned int i = 0; i < iter; i++) {
            dest_ptr->s0[tid] += src_ptr->s0[tid];
            dest_ptr->s1[tid] += src_ptr->s1[tid];
            dest_ptr->s2[tid] += src_ptr->s2[tid];
            dest_ptr->s3[tid] += src_ptr->s3[tid];
            dest_ptr->s4[tid] += src_ptr->s4[tid];
            dest_ptr->s5[tid] += src_ptr->s5[tid];
            dest_ptr->s6[tid] += src_ptr->s6[tid];
            dest_ptr->s7[tid] += src_ptr->s7[tid];
        }
    }
}
