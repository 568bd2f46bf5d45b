// Models HeCBench's adam (the Adam optimiser step from apex), written here from its description:
// a grid-stride loop over the parameters updating the first and second moments and the weights;
// templated on the parameter type T and the gradient type G, instantiated by the host for float.
template <typename T, typename G>
__global__ void adam(T* __restrict__ p, T* __restrict__ m, T* __restrict__ v, const G* __restrict__ g, const float b1,
                     const float b2, const float eps, const float grad_scale, const float step_size,
                     const size_t n, const float decay) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int totThreads = gridDim.x * blockDim.x;
    for (size_t j = i; j < n; j += totThreads) {
        T scaled_grad = g[j] / grad_scale;
        m[j] = b1 * m[j] + (1.f - b1) * scaled_grad;
        v[j] = b2 * v[j] + (1.f - b2) * scaled_grad * scaled_grad;
        float denom = sqrtf(v[j]) + eps;
        float update = (m[j] / denom) + (decay * p[j]);
        p[j] = p[j] - (step_size * update);
    }
}

#ifndef __CUDACC_RTC__
void step(float* d_p, float* d_m, float* d_v, float* d_g, size_t vector_size, int time_step) {
    adam<float, float><<<1024, 256>>>(d_p, d_m, d_v, d_g, 0.9f, 0.999f, 1e-8f, 1.f, 1e-3f, vector_size, 0.f);
}
#endif
