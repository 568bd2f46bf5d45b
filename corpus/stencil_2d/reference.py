import numpy as np


def reference(x, ny, nx, xp=np):
    out = x.copy()
    out[1:-1, 1:-1] = 0.2 * (x[1:-1, 1:-1] + x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] + x[1:-1, 2:])
    return {"out": out}
