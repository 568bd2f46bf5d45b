"""The project's own CUDA files, for tests that compare a fast path with the general one over every
kernel we have: the examples, the test kernels one folder deep, and the corpus."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT_CUDA_FILES = sorted([*ROOT.glob("examples/*.cu"), *ROOT.glob("tests/kernels/*/*.cu"),
                             *ROOT.glob("corpus/*/*.cu")])


def project_kernels():
    """Every kernel of PROJECT_CUDA_FILES, file by file, as the front end models it."""
    from kernelscope.frontend.parse import parse_file

    for path in PROJECT_CUDA_FILES:
        yield from parse_file(path.read_text(), str(path)).kernels
