import numpy as np


def reference(x, weight, rows, cols, xp=np):
    x64 = x.astype(xp.float64)
    scale = 1.0 / xp.sqrt((x64 * x64).mean(axis=1, keepdims=True) + 1e-6)
    return {"out": (x64 * scale * weight).astype(xp.float32)}
