import numpy as np


def reference(a, b, n, xp=np):
    return {"c": a + b}
