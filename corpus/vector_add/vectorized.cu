// Four elements per thread through 16-byte loads; the last n % 4 elements are done one by one.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int quads = n / 4;
    if (i < quads) {
        float4 x = reinterpret_cast<const float4 *>(a)[i];
        float4 y = reinterpret_cast<const float4 *>(b)[i];
        reinterpret_cast<float4 *>(c)[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    int tail = quads * 4 + i;
    if (i < n % 4)
        c[tail] = a[tail] + b[tail];
}

/* kernelscope:plan
[[launch]]
kernel = "vector_add"
grid = ["ceil_div(n, 1024)"]
block = ["256"]
args = ["a", "b", "c", "n"]
*/
