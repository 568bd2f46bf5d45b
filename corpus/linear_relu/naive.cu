// One thread per output: a dot product of an x row and a weight row from global memory; the lanes
// of a warp read weight rows fin floats apart, so those loads are uncoalesced.
extern "C" __global__ void linear_relu(const float *x, const float *weight, const float *bias, float *out,
                                       int batch, int fin, int fout)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= batch || j >= fout)
        return;
    float acc = bias[j];
    for (int t = 0; t < fin; t++)
        acc += x[(long)i * fin + t] * weight[(long)j * fin + t];
    out[(long)i * fout + j] = fmaxf(acc, 0.0f);
}
