import numpy as np


def reference(x, weight, rows, cols):
    x64 = x.astype(np.float64)
    scale = 1.0 / np.sqrt((x64 * x64).mean(axis=1, keepdims=True) + 1e-6)
    return {"out": (x64 * scale * weight).astype(np.float32)}
