import numpy as np


def _cnd(d, xp=np):
    k = 1.0 / (1.0 + 0.2316419 * xp.abs(d))
    poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
    tail = 0.3989422804014327 * xp.exp(-0.5 * d * d) * poly
    return xp.where(d > 0, 1.0 - tail, tail)


def reference(spot, strike, years, rate, volatility, n, xp=np):
    s, x, t = (a.astype(xp.float64) for a in (spot, strike, years))
    r, v = float(rate), float(volatility)
    sqrt_t = xp.sqrt(t)
    d1 = (xp.log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt_t)
    d2 = d1 - v * sqrt_t
    discount = xp.exp(-r * t)
    call = s * _cnd(d1, xp) - x * discount * _cnd(d2, xp)
    put = x * discount * (1.0 - _cnd(d2, xp)) - s * (1.0 - _cnd(d1, xp))
    return {"call": call.astype(xp.float32), "put": put.astype(xp.float32)}
