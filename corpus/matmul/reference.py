import numpy as np


def reference(a, b, m, n, k, xp=np):
    return {"c": a @ b}
