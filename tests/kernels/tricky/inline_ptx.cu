// Inline PTX: single-line and multi-line asm statements with operands,
// %% escapes, string concatenation and a memory clobber.
__device__ __forceinline__ unsigned lane_id()
{
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}

__global__ void ptx_load_add(const float* __restrict__ in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(in + i));
    float w;
    asm("{\n\t"
        ".reg .f32 t;\n\t"
        "add.f32 t, %1, %2;\n\t"
        "mul.f32 %0, t, %2;\n\t"
        "}"
        : "=f"(w)
        : "f"(v), "f"(2.0f)
        : "memory");
    out[i] = w + (float)lane_id();
}
