import numpy as np


def reference(x, bias, rows, cols):
    return {"out": np.maximum(x + bias, 0).astype(np.float32)}
