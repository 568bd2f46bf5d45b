// Models HeCBench's bitonic-sort, written here from the classic bitonic network: for stage (k, j)
// each thread compares element i with its partner i ^ j and swaps them towards the direction that
// bit k of i selects; only the lower index of each pair acts.
__global__ void bitonic_sort_step(float* dev_values, int j, int k) {
    unsigned int i, ixj;
    i = threadIdx.x + blockDim.x * blockIdx.x;
    ixj = i ^ j;
    if ((ixj) > i) {
        if ((i & k) == 0) {
            if (dev_values[i] > dev_values[ixj]) {
                float temp = dev_values[i];
                dev_values[i] = dev_values[ixj];
                dev_values[ixj] = temp;
            }
        }
        if ((i & k) != 0) {
            if (dev_values[i] < dev_values[ixj]) {
                float temp = dev_values[i];
                dev_values[i] = dev_values[ixj];
                dev_values[ixj] = temp;
            }
        }
    }
}
