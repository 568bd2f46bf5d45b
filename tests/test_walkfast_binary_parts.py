"""A binary expression that is an operand of another, or a declared variable's initial value, gives
its parts (expression, type) without the Value that `expression` would make only to be read
(Walker._binary_parts). The model must be what the general path builds, each binary expression
through `expression` and _binary_general, on every CUDA file of the project (compared by the digest
of tests/test_walker_fast_paths.py, which names expression nodes by first-met order so that sharing
must agree too); parts read with another type must be caught."""

import pytest

from kernelscope.frontend import body
from test_walker_fast_paths import CUDA_FILES, ROOT, _general_path, digests


def _general_parts(walker, node, depth):
    value = walker._binary_general(node, depth)
    return value, value.expr, value.ctype, value.pointer


def _general(monkeypatch):
    _general_path(monkeypatch)
    monkeypatch.setattr(body.Walker, "_binary_parts", _general_parts)


def _differing(monkeypatch, paths, fast_patch=None) -> list:
    return digests(monkeypatch, paths, _general, fast_patch)


def test_parts_build_what_the_general_path_builds(monkeypatch):
    assert _differing(monkeypatch, CUDA_FILES) == []


def test_parts_with_another_type_are_caught(monkeypatch):
    parts = body.Walker._binary_parts

    def retyped(walker, node, depth):
        value, expr, ctype, pointer = parts(walker, node, depth)
        return (value, expr, "double", pointer) if value is None else (value, expr, ctype, pointer)

    paths = sorted((ROOT / "examples").glob("*.cu")) + CUDA_FILES[:40]
    assert _differing(monkeypatch, paths, lambda m: m.setattr(body.Walker, "_binary_parts", retyped)) != []
