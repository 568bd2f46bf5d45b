import numpy as np


def reference(image, filter, h, w, xp=np):
    padded = xp.pad(image, 3)
    out = xp.zeros((h, w), dtype=xp.float32)
    for di in range(7):
        for dj in range(7):
            out += filter[di, dj] * padded[di:di + h, dj:dj + w]
    return {"out": out}
