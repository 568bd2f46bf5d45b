import numpy as np


def reference(x, planes, hw, xp=np):
    return {"out": x.astype(xp.float64).mean(axis=(2, 3)).astype(xp.float32)}
