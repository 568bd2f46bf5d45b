#include <math.h>

/* Cumulative normal distribution, polynomial approximation (Abramowitz and Stegun 26.2.17). */
static float cnd(float d)
{
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float poly = k * (0.31938153f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
    float tail = 0.3989422804f * expf(-0.5f * d * d) * poly;
    return d > 0 ? 1.0f - tail : tail;
}

void black_scholes(const float *spot, const float *strike, const float *years, float *call, float *put,
                   float rate, float volatility, int n)
{
    for (int i = 0; i < n; i++) {
        float sqrt_t = sqrtf(years[i]);
        float d1 = (logf(spot[i] / strike[i]) + (rate + 0.5f * volatility * volatility) * years[i]) / (volatility * sqrt_t);
        float d2 = d1 - volatility * sqrt_t;
        float discount = expf(-rate * years[i]);
        call[i] = spot[i] * cnd(d1) - strike[i] * discount * cnd(d2);
        put[i] = strike[i] * discount * (1.0f - cnd(d2)) - spot[i] * (1.0f - cnd(d1));
    }
}
