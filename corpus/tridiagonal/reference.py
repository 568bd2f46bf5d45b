import numpy as np


def reference(lower, diag, upper, rhs, batch, n, xp=np):
    """The Thomas algorithm, vectorised over the batch, in double precision."""
    a, b, c, d = (v.astype(xp.float64) for v in (lower, diag, upper, rhs))
    cp, dp = xp.empty_like(c), xp.empty_like(d)
    cp[:, 0], dp[:, 0] = c[:, 0] / b[:, 0], d[:, 0] / b[:, 0]
    for i in range(1, n):
        m = b[:, i] - a[:, i] * cp[:, i - 1]
        cp[:, i] = c[:, i] / m
        dp[:, i] = (d[:, i] - a[:, i] * dp[:, i - 1]) / m
    x = xp.empty_like(d)
    x[:, -1] = dp[:, -1]
    for i in range(n - 2, -1, -1):
        x[:, i] = dp[:, i] - cp[:, i] * x[:, i + 1]
    return {"x": x.astype(xp.float32)}
