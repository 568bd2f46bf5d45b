def reference(a, b, n):
    return {"c": a + b}
