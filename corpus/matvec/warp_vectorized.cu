// One warp per row with 16-byte loads of A and x when rows are 16-byte aligned (cols % 4 == 0),
// x read through the read-only path; shuffles add up the lanes.
extern "C" __global__ void matvec(const float *__restrict__ a, const float *__restrict__ x,
                                  float *__restrict__ y, int rows, int cols)
{
    int lane = threadIdx.x % 32;
    int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (r >= rows)
        return;
    const float *row = a + (long)r * cols;
    float acc = 0.0f;
    if (cols % 4 == 0) {
        const float4 *row4 = reinterpret_cast<const float4 *>(row);
        const float4 *x4 = reinterpret_cast<const float4 *>(x);
        for (int q = lane; q < cols / 4; q += 32) {
            float4 v = row4[q], w = __ldg(&x4[q]);
            acc += v.x * w.x + v.y * w.y + v.z * w.z + v.w * w.w;
        }
    } else {
        for (int c = lane; c < cols; c += 32)
            acc += row[c] * __ldg(&x[c]);
    }
    for (int offset = 16; offset > 0; offset /= 2)
        acc += __shfl_xor_sync(0xffffffffu, acc, offset);
    if (lane == 0)
        y[r] = acc;
}
