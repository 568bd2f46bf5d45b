import numpy as np


def _cnd(d):
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
    tail = 0.3989422804014327 * np.exp(-0.5 * d * d) * poly
    return np.where(d > 0, 1.0 - tail, tail)


def reference(spot, strike, years, rate, volatility, n):
    s, x, t = (a.astype(np.float64) for a in (spot, strike, years))
    r, v = float(rate), float(volatility)
    sqrt_t = np.sqrt(t)
    d1 = (np.log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt_t)
    d2 = d1 - v * sqrt_t
    discount = np.exp(-r * t)
    call = s * _cnd(d1) - x * discount * _cnd(d2)
    put = x * discount * (1.0 - _cnd(d2)) - s * (1.0 - _cnd(d1))
    return {"call": call.astype(np.float32), "put": put.astype(np.float32)}
