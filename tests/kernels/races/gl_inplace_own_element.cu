// race-suite: race-free
// memory: global
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512], int32=512
// An in-place update where every thread reads and writes only its own element.
extern "C" __global__ void gl_inplace_own_element(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 2.0f * x[i] + 1.0f;
}
