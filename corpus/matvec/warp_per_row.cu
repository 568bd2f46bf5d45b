// One warp per row: lanes stride along the row (coalesced) and shuffles add up the lanes.
extern "C" __global__ void matvec(const float *a, const float *x, float *y, int rows, int cols)
{
    int lane = threadIdx.x % 32;
    int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (r >= rows)
        return;
    const float *row = a + (long)r * cols;
    float acc = 0.0f;
    for (int c = lane; c < cols; c += 32)
        acc += row[c] * x[c];
    for (int offset = 16; offset > 0; offset /= 2)
        acc += __shfl_xor_sync(0xffffffffu, acc, offset);
    if (lane == 0)
        y[r] = acc;
}
