import numpy as np


def reference(gate, up, n, xp=np):
    g = gate.astype(xp.float64)
    return {"out": (g / (1.0 + xp.exp(-g)) * up).astype(xp.float32)}
