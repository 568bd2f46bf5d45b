import numpy as np


def reference(image, filter, h, w):
    padded = np.pad(image, 3)
    out = np.zeros((h, w), dtype=np.float32)
    for di in range(7):
        for dj in range(7):
            out += filter[di, dj] * padded[di:di + h, dj:dj + w]
    return {"out": out}
