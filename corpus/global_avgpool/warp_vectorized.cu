// One warp per plane with 16-byte loads when planes are 16-byte aligned (hw % 4 == 0), lanes
// combined with shuffles.
extern "C" __global__ void global_avgpool(const float *__restrict__ x, float *__restrict__ out, int planes, int hw)
{
    int lane = threadIdx.x % 32;
    int p = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (p >= planes)
        return;
    const float *plane = x + (long)p * hw;
    float sum = 0.0f;
    if (hw % 4 == 0) {
        for (int q = lane; q < hw / 4; q += 32) {
            float4 v = reinterpret_cast<const float4 *>(plane)[q];
            sum += (v.x + v.y) + (v.z + v.w);
        }
    } else {
        for (int k = lane; k < hw; k += 32)
            sum += plane[k];
    }
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (lane == 0)
        out[p] = sum / hw;
}

/* kernelscope:plan
[[launch]]
kernel = "global_avgpool"
grid = ["ceil_div(n * c, 8)"]
block = ["256"]
args = ["x", "out", "planes", "hw"]
*/
