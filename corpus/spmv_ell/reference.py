import numpy as np


def reference(vals, col, x, rows, nnz, xp=np):
    return {"y": (vals.astype(xp.float64) * x.astype(xp.float64)[col]).sum(axis=1).astype(xp.float32)}
