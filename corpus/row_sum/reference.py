import numpy as np


def reference(x, rows, cols, xp=np):
    return {"out": x.astype(xp.float64).sum(axis=1).astype(xp.float32)}
