def reference(a, b):
    return a @ b
