// race-suite: race
// memory: global
// between: blocks
// launch: block=128 grid=4
// args: float32[513], int32=512
// Every thread moves its element one place to the right, with a barrier between the read and the
// write: the last thread of a block overwrites the element the next block's first thread reads.
extern "C" __global__ void gb_shift_right_inplace(float* x, int n)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    float v = x[i];                                       // RACE
    __syncthreads();
    if (i < n) x[i + 1] = v;                              // RACE
}
