import numpy as np


def reference(x, planes, h, w, xp=np):
    n, c = x.shape[:2]
    ho, wo = h // 2, w // 2
    windows = x[:, :, :2 * ho, :2 * wo].reshape(n, c, ho, 2, wo, 2)
    return {"out": windows.max(axis=(3, 5))}
