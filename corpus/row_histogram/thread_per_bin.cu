// One block per row, one thread per bin: every thread reads the entire row and counts its own
// value, so the row is read 256 times (as broadcasts) and no atomics are needed.
extern "C" __global__ void row_histogram(const int *x, int *hist, int rows, int cols)
{
    const int *row = x + (long)blockIdx.x * cols;
    int bin = threadIdx.x, count = 0;
    for (int c = 0; c < cols; c++)
        count += row[c] == bin;
    hist[(long)blockIdx.x * 256 + bin] = count;
}
