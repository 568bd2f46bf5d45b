"""The one-kernel sources the sync tests build from a body: `extern "C" __global__ void k(...)`."""

from __future__ import annotations

from kernelscope.frontend import parse_file


def kernel_of(body: str, params: str = "const float* x, float* y, int n", prefix: str = ""):
    """The parsed kernel `k(params) { body }`, after `prefix` (declarations it needs)."""
    source = f'{prefix}extern "C" __global__ void k({params})\n{{\n{body}\n}}\n'
    model = parse_file(source, "k.cu")
    assert model.kernels, model.errors
    return model.kernels[0]
