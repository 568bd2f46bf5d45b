import numpy as np


def reference(x, idx, n, xp=np):
    return {"out": x[idx]}
