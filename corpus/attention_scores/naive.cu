// One thread per score straight from global memory: the lanes of a warp read k rows dim floats
// apart, so the k loads are uncoalesced.
extern "C" __global__ void attention_scores(const float *q, const float *k, float *scores, float scale, int seq, int dim)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= seq || j >= seq)
        return;
    const float *qi = q + ((long)blockIdx.z * seq + i) * dim;
    const float *kj = k + ((long)blockIdx.z * seq + j) * dim;
    float acc = 0.0f;
    for (int t = 0; t < dim; t++)
        acc += qi[t] * kj[t];
    scores[((long)blockIdx.z * seq + i) * seq + j] = acc * scale;
}
