import numpy as np


def reference(x, rows, len):
    return {"out": np.sort(x, axis=1)}
