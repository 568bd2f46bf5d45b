import numpy as np


def reference(x, rows, cols, xp=np):
    return {"out": xp.cumsum(x, axis=1, dtype=xp.int32)}
