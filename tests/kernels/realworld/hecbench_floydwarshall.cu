// Models HeCBench's floydwarshall (from the AMD APP SDK sample), written here from its
// description: pass k relaxes every pair (y, x) of a numNodes x numNodes distance matrix through
// node k, with 2-D blocks, x fastest, recording k in the path matrix when it shortens the path.
__global__ void floydWarshallPass(unsigned int* pathDistanceBuffer, unsigned int* pathBuffer,
                                  const unsigned int numNodes, const unsigned int pass) {
    int xValue = threadIdx.x + blockIdx.x * blockDim.x;
    int yValue = threadIdx.y + blockIdx.y * blockDim.y;
    int k = pass;
    int oldWeight = pathDistanceBuffer[yValue * numNodes + xValue];
    int tempWeight = pathDistanceBuffer[yValue * numNodes + k] + pathDistanceBuffer[k * numNodes + xValue];
    if (tempWeight < oldWeight) {
        pathDistanceBuffer[yValue * numNodes + xValue] = tempWeight;
        pathBuffer[yValue * numNodes + xValue] = k;
    }
}
