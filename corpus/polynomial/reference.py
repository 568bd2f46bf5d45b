import numpy as np


def reference(x, coeffs, n, xp=np):
    y = xp.zeros_like(x, dtype=xp.float64)
    for c in coeffs[::-1].astype(xp.float64):
        y = y * x + c
    return {"y": y.astype(xp.float32)}
