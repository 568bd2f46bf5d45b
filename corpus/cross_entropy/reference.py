import numpy as np


def reference(logits, target, batch, classes, xp=np):
    x = logits.astype(xp.float64)
    peak = x.max(axis=1)
    lse = peak + xp.log(xp.exp(x - peak[:, None]).sum(axis=1))
    return {"loss": (lse - x[xp.arange(batch), target]).astype(xp.float32)}
