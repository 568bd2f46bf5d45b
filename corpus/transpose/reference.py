import numpy as np


def reference(x, rows, cols):
    return {"out": np.ascontiguousarray(x.T)}
