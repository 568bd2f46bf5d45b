// Models Rodinia's kmeans (CUDA version), written here from its description: invert_mapping
// transposes the point-major feature table into feature-major order, kmeansPoint gives each point
// (one thread) the nearest of nclusters centres, reading its features feature-major (coalesced)
// and the centres, which every thread of a warp reads at the same address.
__global__ void invert_mapping(float* input, float* output, int npoints, int nfeatures) {
    int point_id = threadIdx.x + blockDim.x * blockIdx.x;
    int i;
    if (point_id < npoints) {
        for (i = 0; i < nfeatures; i++)
            output[point_id + npoints * i] = input[point_id * nfeatures + i];
    }
}

__global__ void kmeansPoint(float* features, int nfeatures, int npoints, int nclusters, int* membership,
                            float* clusters) {
    unsigned int block_id = gridDim.x * blockIdx.y + blockIdx.x;
    unsigned int point_id = block_id * blockDim.x * blockDim.y + threadIdx.x;
    int index = -1;
    if (point_id < npoints) {
        int i, j;
        float min_dist = 3.4e38f;
        float dist;
        for (i = 0; i < nclusters; i++) {
            int cluster_base_index = i * nfeatures;
            float ans = 0.0;
            for (j = 0; j < nfeatures; j++) {
                int addr = point_id + j * npoints;
                float diff = (features[addr] - clusters[cluster_base_index + j]);
                ans += diff * diff;
            }
            dist = ans;
            if (dist < min_dist) {
                min_dist = dist;
                index = i;
            }
        }
    }
    if (point_id < npoints) {
        membership[point_id] = index;
    }
}
