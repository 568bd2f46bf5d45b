import numpy as np


def reference(a, x, rows, cols, xp=np):
    return {"y": (a.astype(xp.float64) @ x.astype(xp.float64)).astype(xp.float32)}
