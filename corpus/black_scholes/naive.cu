// Each thread prices a contiguous run of 32 options; lanes of a warp are 128 bytes apart.
__device__ __forceinline__ float cnd(float d)
{
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float poly = k * (0.31938153f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
    float tail = 0.3989422804f * __expf(-0.5f * d * d) * poly;
    return d > 0 ? 1.0f - tail : tail;
}

__device__ __forceinline__ void price(float s, float x, float t, float r, float v, float *c, float *p)
{
    float sqrt_t = sqrtf(t);
    float d1 = (__logf(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
    float d2 = d1 - v * sqrt_t;
    float discount = __expf(-r * t);
    float n1 = cnd(d1), n2 = cnd(d2);
    *c = s * n1 - x * discount * n2;
    *p = x * discount * (1.0f - n2) - s * (1.0f - n1);
}

extern "C" __global__ void black_scholes(const float *spot, const float *strike, const float *years, float *call,
                                         float *put, float rate, float volatility, int n)
{
    const int chunk = 32;
    long start = ((long)blockIdx.x * blockDim.x + threadIdx.x) * chunk;
    for (long i = start; i < start + chunk && i < n; i++)
        price(spot[i], strike[i], years[i], rate, volatility, &call[i], &put[i]);
}

/* kernelscope:plan
[[launch]]
kernel = "black_scholes"
grid = ["ceil_div(n, 128 * 32)"]
block = ["128"]
args = ["spot", "strike", "years", "call", "put", "rate", "volatility", "n"]
*/
