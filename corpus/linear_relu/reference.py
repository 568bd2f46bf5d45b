import numpy as np


def reference(x, weight, bias, batch, fin, fout):
    out = x.astype(np.float64) @ weight.astype(np.float64).T + bias
    return {"out": np.maximum(out, 0).astype(np.float32)}
