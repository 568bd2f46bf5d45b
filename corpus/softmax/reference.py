import numpy as np


def reference(x, rows, cols):
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=1, keepdims=True))
    return {"out": (e / e.sum(axis=1, keepdims=True)).astype(np.float32)}
