import numpy as np


def reference(x, w, n):
    padded = np.concatenate([np.zeros(4), x.astype(np.float64), np.zeros(4)])
    out = sum(float(w[k]) * padded[k:k + n] for k in range(9))
    return {"out": out.astype(np.float32)}
