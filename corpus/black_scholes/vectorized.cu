// Four options per thread through float4 loads and stores; the n % 4 leftovers one by one.
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

extern "C" __global__ void black_scholes(const float *__restrict__ spot, const float *__restrict__ strike,
                                         const float *__restrict__ years, float *__restrict__ call,
                                         float *__restrict__ put, float rate, float volatility, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int quads = n / 4;
    if (i < quads) {
        float4 s = reinterpret_cast<const float4 *>(spot)[i];
        float4 x = reinterpret_cast<const float4 *>(strike)[i];
        float4 t = reinterpret_cast<const float4 *>(years)[i];
        float4 c, p;
        price(s.x, x.x, t.x, rate, volatility, &c.x, &p.x);
        price(s.y, x.y, t.y, rate, volatility, &c.y, &p.y);
        price(s.z, x.z, t.z, rate, volatility, &c.z, &p.z);
        price(s.w, x.w, t.w, rate, volatility, &c.w, &p.w);
        reinterpret_cast<float4 *>(call)[i] = c;
        reinterpret_cast<float4 *>(put)[i] = p;
    }
    int tail = quads * 4 + i;
    if (i < n % 4)
        price(spot[tail], strike[tail], years[tail], rate, volatility, &call[tail], &put[tail]);
}

/* kernelscope:plan
[[launch]]
kernel = "black_scholes"
grid = ["ceil_div(n, 512)"]
block = ["128"]
args = ["spot", "strike", "years", "call", "put", "rate", "volatility", "n"]
*/
