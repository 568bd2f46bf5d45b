import numpy as np


def reference(a, b, m, n, k):
    return {"c": np.matmul(a, b, dtype=np.float32)}
