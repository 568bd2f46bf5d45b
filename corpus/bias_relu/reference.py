import numpy as np


def reference(x, bias, rows, cols, xp=np):
    return {"out": xp.maximum(x + bias, 0).astype(xp.float32)}
