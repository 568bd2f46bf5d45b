def reference(x, idx, n):
    return {"out": x[idx]}
