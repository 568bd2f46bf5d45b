import numpy as np


def reference(x, rows, cols, xp=np):
    return {"out": xp.ascontiguousarray(x.T)}
