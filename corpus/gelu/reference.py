import numpy as np


def reference(x, n):
    v = x.astype(np.float64)
    return {"out": (0.5 * v * (1.0 + np.tanh(0.7978845608028654 * (v + 0.044715 * v ** 3)))).astype(np.float32)}
