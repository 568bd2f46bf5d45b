// Four elements per thread through 16-byte loads; the tail (n not a multiple of 4) is done scalar.
__global__ void vector_add_float4(const float *__restrict__ a, const float *__restrict__ b,
                                  float *__restrict__ c, int n) {
    int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (i + 3 < n) {
        float4 x = *reinterpret_cast<const float4 *>(a + i);
        float4 y = *reinterpret_cast<const float4 *>(b + i);
        *reinterpret_cast<float4 *>(c + i) = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    } else {
        for (; i < n; ++i) c[i] = a[i] + b[i];
    }
}

/* kernelscope:plan
# four elements per thread: a quarter of the problem's grid
[[launch]]
kernel = "vector_add_float4"
grid = ["ceil_div(n, 1024)"]
block = ["256"]
args = ["a", "b", "c", "n"]
*/
