// Models HeCBench's softmax, written here from its description: each thread normalises one slice
// of sliceSize values (max, sum of exponentials, then the quotients) with a grid-stride loop over
// slices, so the lanes of a warp are a slice apart.
__global__ void softMax(const int numSlice, const int sliceSize, const float* src, float* dest) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= numSlice) return;
    float max_ = src[i * sliceSize];
    for (int j = 0; j < sliceSize; j++) {
        max_ = max(max_, src[i * sliceSize + j]);
    }
    float sum = 0;
    for (int j = 0; j < sliceSize; j++) {
        sum += expf(src[i * sliceSize + j] - max_);
    }
    for (int j = 0; j < sliceSize; j++) {
        dest[i * sliceSize + j] = expf(src[i * sliceSize + j] - max_) / sum;
    }
}
