import numpy as np


def reference(x, rows, cols):
    x64 = x.astype(np.float64)
    peak = x64.max(axis=1)
    return {"out": (peak + np.log(np.exp(x64 - peak[:, None]).sum(axis=1))).astype(np.float32)}
