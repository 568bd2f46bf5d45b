import numpy as np


def reference(x, w, n, xp=np):
    padded = xp.concatenate([xp.zeros(4), x.astype(xp.float64), xp.zeros(4)])
    out = sum(float(w[k]) * padded[k:k + n] for k in range(9))
    return {"out": out.astype(xp.float32)}
