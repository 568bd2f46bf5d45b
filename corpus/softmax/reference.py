import numpy as np


def reference(x, rows, cols, xp=np):
    x64 = x.astype(xp.float64)
    e = xp.exp(x64 - x64.max(axis=1, keepdims=True))
    return {"out": (e / e.sum(axis=1, keepdims=True)).astype(xp.float32)}
