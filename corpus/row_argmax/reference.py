import numpy as np


def reference(x, rows, cols):
    return {"out": np.argmax(x, axis=1).astype(np.int32)}
