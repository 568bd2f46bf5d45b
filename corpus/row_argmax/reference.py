import numpy as np


def reference(x, rows, cols, xp=np):
    return {"out": xp.argmax(x, axis=1).astype(xp.int32)}
