import numpy as np


def reference(logits, target, batch, classes):
    x = logits.astype(np.float64)
    peak = x.max(axis=1)
    lse = peak + np.log(np.exp(x - peak[:, None]).sum(axis=1))
    return {"loss": (lse - x[np.arange(batch), target]).astype(np.float32)}
