import numpy as np


def reference(x, weight, bias, n, cin, cout, h, w):
    padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, cout, h, w)) + bias.astype(np.float64)[None, :, None, None]
    for dy in range(3):
        for dx in range(3):
            out += np.einsum("oc,nchw->nohw", weight[:, :, dy, dx].astype(np.float64),
                             padded[:, :, dy:dy + h, dx:dx + w], optimize=True)
    return {"out": out.astype(np.float32)}
