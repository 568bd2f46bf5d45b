import numpy as np


def reference(x, mean, var, weight, bias, n, c, hw):
    shape = (1, -1, 1, 1)
    scale = weight.astype(np.float64) / np.sqrt(var.astype(np.float64) + 1e-5)
    out = (x - mean.reshape(shape)) * scale.reshape(shape) + bias.reshape(shape)
    return {"out": out.astype(np.float32)}
