import numpy as np


def reference(q, k, scale, seq, dim):
    return {"scores": (np.matmul(q, k.transpose(0, 2, 1), dtype=np.float32) * np.float32(scale))}
