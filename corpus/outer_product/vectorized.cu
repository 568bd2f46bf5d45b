// Four columns per thread with a float4 load of b and a float4 store when rows are 16-byte
// aligned (n % 4 == 0); a[i] is read once per thread.
extern "C" __global__ void outer_product(const float *__restrict__ a, const float *__restrict__ b,
                                         float *__restrict__ out, int m, int n)
{
    int j = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= m || j >= n)
        return;
    float ai = a[i];
    float *row = out + (long)i * n;
    if (n % 4 == 0) {
        float4 bv = *reinterpret_cast<const float4 *>(b + j);
        *reinterpret_cast<float4 *>(row + j) = make_float4(ai * bv.x, ai * bv.y, ai * bv.z, ai * bv.w);
    } else {
        for (int t = j; t < j + 4 && t < n; t++)
            row[t] = ai * b[t];
    }
}

/* kernelscope:plan
[[launch]]
kernel = "outer_product"
grid = ["ceil_div(n, 256)", "ceil_div(m, 4)"]
block = ["64", "4"]
args = ["a", "b", "out", "m", "n"]
*/
