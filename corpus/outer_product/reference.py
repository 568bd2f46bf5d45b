import numpy as np


def reference(a, b, m, n):
    return {"out": np.outer(a, b).astype(np.float32)}
