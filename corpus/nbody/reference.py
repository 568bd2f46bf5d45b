import numpy as np


def reference(bodies, eps2, n, xp=np):
    p = bodies.astype(xp.float64)
    acc = xp.empty((n, 3))
    for start in range(0, n, 512):
        d = p[None, :, :3] - p[start:start + 512, None, :3]
        inv = ((d * d).sum(axis=2) + float(eps2)) ** -1.5 * p[None, :, 3]
        acc[start:start + 512] = (inv[:, :, None] * d).sum(axis=1)
    return {"acc": acc.astype(xp.float32)}
