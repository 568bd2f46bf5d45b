import numpy as np


def reference(x, rows, len, xp=np):
    return {"out": xp.sort(x, axis=1)}
