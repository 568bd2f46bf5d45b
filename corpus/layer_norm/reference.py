import numpy as np


def reference(x, weight, bias, rows, cols, xp=np):
    x64 = x.astype(xp.float64)
    mean = x64.mean(axis=1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=1, keepdims=True)
    return {"out": ((x64 - mean) / xp.sqrt(var + 1e-5) * weight + bias).astype(xp.float32)}
