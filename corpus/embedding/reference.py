import numpy as np


def reference(weight, idx, tokens, dim, xp=np):
    return {"out": weight[idx]}
