// __align__ on structs, on typedef'd anonymous structs and on local arrays.
struct __align__(16) Particle {
    float4 position;
    float4 velocity;
};

typedef struct __align__(8) {
    float re;
    float im;
} Complex;

__global__ void integrate(Particle* particles, float dt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Particle p = particles[i];
        p.position.x += p.velocity.x * dt;
        p.position.y += p.velocity.y * dt;
        p.position.z += p.velocity.z * dt;
        particles[i] = p;
    }
}

__global__ void conjugate(Complex* z, int n)
{
    __align__(16) float staging[4];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    staging[0] = i < n ? z[i].im : 0.0f;
    if (i < n) z[i].im = -staging[0];
}
