import numpy as np


def reference(x, mean, var, weight, bias, n, c, hw, xp=np):
    shape = (1, -1, 1, 1)
    scale = weight.astype(xp.float64) / xp.sqrt(var.astype(xp.float64) + 1e-5)
    out = (x - mean.reshape(shape)) * scale.reshape(shape) + bias.reshape(shape)
    return {"out": out.astype(xp.float32)}
