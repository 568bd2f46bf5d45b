// Self-referencing and mutually recursive macros: C expands each only once
// (a macro's own name inside its expansion is left alone), so these are legal.
__device__ int limit = 1024;
__device__ float gain = 1.5f;
__device__ int PING = 3;
__device__ int wrap(int v) { return v; }

#define limit limit
#define gain (gain * 2)
#define PING PONG
#define PONG PING
#define wrap(x) wrap(x + 1)

__global__ void use_recursive_macros(float* a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < limit) a[i] = gain * a[i] + PING + wrap(i);
}
