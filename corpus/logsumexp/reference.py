import numpy as np


def reference(x, rows, cols, xp=np):
    x64 = x.astype(xp.float64)
    peak = x64.max(axis=1)
    return {"out": (peak + xp.log(xp.exp(x64 - peak[:, None]).sum(axis=1))).astype(xp.float32)}
