import numpy as np


def reference(x, rows, cols, xp=np):
    return {"out": x.astype(xp.float64).sum(axis=0).astype(xp.float32)}
