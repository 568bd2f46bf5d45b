import numpy as np


def reference(x, rows, cols):
    return {"out": x.astype(np.float64).sum(axis=0).astype(np.float32)}
