// race-suite: race
// memory: global
// between: threads-of-a-block
// launch: block=128 grid=4
// args: float32[512]
// A Hillis-Steele scan in place in global memory: step off reads y[i - off] while its owner
// updates it.
extern "C" __global__ void gl_inplace_scan_no_barrier(float* y)
{
    int t = threadIdx.x, i = blockIdx.x * 128 + threadIdx.x;
    for (int off = 1; off < 128; off *= 2) {
        if (t >= off) y[i] += y[i - off];                  // RACE
    }
}
