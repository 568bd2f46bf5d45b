import numpy as np


def reference(a, b, m, n, xp=np):
    return {"out": xp.outer(a, b).astype(xp.float32)}
