import numpy as np


def reference(x, y, alpha, n, xp=np):
    return {"out": (xp.float32(alpha) * x + y).astype(xp.float32)}
