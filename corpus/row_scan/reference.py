import numpy as np


def reference(x, rows, cols):
    return {"out": np.cumsum(x, axis=1, dtype=np.int32)}
