import numpy as np


def reference(x, rows, cols, xp=np):
    keep = x > 0
    slot = xp.cumsum(keep, axis=1) - 1          # output column of every kept entry
    row = xp.broadcast_to(xp.arange(rows)[:, None], x.shape)
    out = xp.zeros_like(x)
    out[row[keep], slot[keep]] = x[keep]
    return {"out": out, "count": keep.sum(axis=1).astype(xp.int32)}
