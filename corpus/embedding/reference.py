def reference(weight, idx, tokens, dim):
    return {"out": weight[idx]}
