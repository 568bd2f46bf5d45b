import numpy as np


def reference(x, y, alpha, n):
    return {"out": (np.float32(alpha) * x + y).astype(np.float32)}
