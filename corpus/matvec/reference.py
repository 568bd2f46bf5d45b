import numpy as np


def reference(a, x, rows, cols):
    return {"y": (a.astype(np.float64) @ x.astype(np.float64)).astype(np.float32)}
