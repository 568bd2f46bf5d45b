// Signatures split across lines in every place a formatter might split
// them. A kernel's line is the line of its name.
template <
    typename T,
    int ITEMS
>
__global__
void
__launch_bounds__(
    128,
    4)
multi_line_template(const T* __restrict__ in,
                    T* __restrict__ out,
                    int n)
{
    int base = blockIdx.x * 128 * ITEMS + threadIdx.x;
    for (int k = 0; k < ITEMS; ++k)
        if (base + k * 128 < n) out[base + k * 128] = in[base + k * 128];
}

__global__ void
    indented_name(float* a) { a[threadIdx.x] = 1.0f; }

template __global__ void multi_line_template<float, 4>(const float*, float*, int);
