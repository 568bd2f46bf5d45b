// One block per row, 1024 columns at a time: a Hillis-Steele scan in double-buffered shared
// memory, then the running total of earlier tiles is added on.
extern "C" __global__ void row_scan(const int *x, int *out, int rows, int cols)
{
    __shared__ int buffer[2][1024];
    __shared__ int carry;
    const int *in_row = x + (long)blockIdx.x * cols;
    int *out_row = out + (long)blockIdx.x * cols;
    if (threadIdx.x == 0)
        carry = 0;
    for (int base = 0; base < cols; base += 1024) {
        int c = base + threadIdx.x;
        int current = 0;
        buffer[0][threadIdx.x] = c < cols ? in_row[c] : 0;
        __syncthreads();
        for (int offset = 1; offset < 1024; offset *= 2) {
            int v = buffer[current][threadIdx.x];
            if (threadIdx.x >= offset)
                v += buffer[current][threadIdx.x - offset];
            buffer[1 - current][threadIdx.x] = v;
            current = 1 - current;
            __syncthreads();
        }
        int total = carry + buffer[current][threadIdx.x];
        if (c < cols)
            out_row[c] = total;
        __syncthreads();
        if (threadIdx.x == 1023)
            carry = total;
        __syncthreads();
    }
}

/* kernelscope:plan
[[launch]]
kernel = "row_scan"
grid = ["rows"]
block = ["1024"]
args = ["x", "out", "rows", "cols"]
*/
