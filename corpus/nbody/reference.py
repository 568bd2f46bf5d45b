import numpy as np


def reference(bodies, eps2, n):
    p = bodies.astype(np.float64)
    acc = np.empty((n, 3))
    for start in range(0, n, 512):
        d = p[None, :, :3] - p[start:start + 512, None, :3]
        inv = (np.einsum("ijk,ijk->ij", d, d) + float(eps2)) ** -1.5 * p[None, :, 3]
        acc[start:start + 512] = np.einsum("ij,ijk->ik", inv, d)
    return {"acc": acc.astype(np.float32)}
