"""The one-kernel sources the sync tests build from a body: `extern "C" __global__ void k(...)`."""

from __future__ import annotations

from pathlib import Path

from kernelscope.frontend import parse_file


def kernel_of(body: str, params: str = "const float* x, float* y, int n", prefix: str = ""):
    """The parsed kernel `k(params) { body }`, after `prefix` (declarations it needs)."""
    source = f'{prefix}extern "C" __global__ void k({params})\n{{\n{body}\n}}\n'
    model = parse_file(source, "k.cu")
    assert model.kernels, model.errors
    return model.kernels[0]


ROOT = Path(__file__).resolve().parents[1]


def named_kernels(bodies: dict, paths: list) -> list:
    """(name, kernel) for each body of `bodies` (name -> body, built by kernel_of) and for every
    kernel of each file of `paths` (relative to the repository root, named `path:kernel`)."""
    cases = [(name, kernel_of(body)) for name, body in bodies.items()]
    for path in paths:
        cases.extend((f"{path}:{kernel.name}", kernel)
                     for kernel in parse_file((ROOT / path).read_text(), path).kernels)
    return cases
