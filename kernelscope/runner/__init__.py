"""Compile, verify, time and profile candidate kernels against a problem spec.

Importing this package is cheap: the GPU-facing parts (CuPy, the worker pool) load on first use.
"""

from __future__ import annotations

from kernelscope.runner.spec import ProblemSpec, SpecError, load_spec

__all__ = ["ProblemSpec", "SpecError", "load_spec", "evaluate", "gpu_available", "RunResult",
           "WorkerPool", "compile_kernel"]

_LAZY = {
    "evaluate": "kernelscope.runner.evaluation",
    "gpu_available": "kernelscope.runner.device",
    "RunResult": "kernelscope.runner.results",
    "WorkerPool": "kernelscope.runner.worker",
    "compile_kernel": "kernelscope.runner.compile",
}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'kernelscope.runner' has no attribute {name!r}")
