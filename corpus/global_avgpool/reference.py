import numpy as np


def reference(x, planes, hw):
    return {"out": x.astype(np.float64).mean(axis=(2, 3)).astype(np.float32)}
