"""Values built only to be unpacked are skipped in two more places of the body walk:
- a binary operator's operand `a[i]` is read by Walker._subscript_parts (its load's parts, no Value);
- a declaration's value that is a number, `threadIdx.x` (or another field) or `a[i]` is read as
  parts, so `float v = a[i];` makes one Value (the name's) instead of two.
The model must be what the general path builds (`expression` and its handlers, the kind sets that
switch the shortcuts emptied), on every CUDA file of the project, compared by the digest of
tests/test_walker_fast_paths.py (which names expression nodes by first-met order, so that sharing
must agree too); shortcuts broken on purpose are caught."""

import pytest

from kernelscope.frontend import body
from kernelscope.frontend.parse import parse_file
from test_walker_fast_paths import CUDA_FILES, ROOT, digests, kind_sets_emptied


_general = kind_sets_emptied("_OPERAND_SUBSCRIPTS", "_DECLARED_PARTS")


def _differing(monkeypatch, fast_patch=None) -> list:
    return digests(monkeypatch, CUDA_FILES, _general, fast_patch)


def test_parts_read_alone_are_what_expression_builds(monkeypatch):
    body._load_kind_tables()
    assert body._OPERAND_SUBSCRIPTS and body._DECLARED_PARTS   # (the shortcuts are on)
    assert _differing(monkeypatch) == []


def test_each_shortcut_alone_is_what_expression_builds(monkeypatch):
    for name in ("_OPERAND_SUBSCRIPTS", "_DECLARED_PARTS"):
        assert _differing(monkeypatch, kind_sets_emptied(name)) == []


def test_the_shortcuts_are_taken(monkeypatch):
    """Both kinds of caller reach _subscript_parts, and declarations of numbers and builtins are
    common: the comparison above compares the shortcuts, not the fallback."""
    callers = []
    parts = body.Walker._subscript_parts

    def counting(walker, node, depth, whole_struct):
        callers.append(whole_struct)
        return parts(walker, node, depth, whole_struct)

    body._load_kind_tables()
    monkeypatch.setattr(body.Walker, "_subscript_parts", counting)
    for path in sorted((ROOT / "examples").glob("*.cu")):
        parse_file(path.read_text(), str(path))
    assert True in callers and False in callers


def _unrecorded(walker, node, depth, whole_struct, parts=body.Walker._subscript_parts):
    recording, walker.record = walker.record, False
    try:
        return parts(walker, node, depth, whole_struct)
    finally:
        walker.record = recording


def _untyped(walker, node, depth, whole_struct, parts=body.Walker._subscript_parts):
    value, expr, ctype, pointer = parts(walker, node, depth, whole_struct)
    return value, expr, None, pointer


def _struct_blind(walker, node, depth, whole_struct, parts=body.Walker._subscript_parts):
    """(only declarations ask for whole structs: `S s = a[i];` loads field by field)"""
    return parts(walker, node, depth, False)


def _row_as_parts(walker, node, depth, whole_struct, parts=body.Walker._subscript_parts):
    """a row of a two-dimensional array must keep its Value: it carries the pointer"""
    value, expr, ctype, pointer = parts(walker, node, depth, whole_struct)
    return None, expr, ctype, None


@pytest.mark.parametrize("broken", [_unrecorded, _untyped, _struct_blind, _row_as_parts])
def test_a_broken_subscript_read_is_caught(monkeypatch, broken):
    assert _differing(monkeypatch, lambda m: m.setattr(body.Walker, "_subscript_parts", broken)) != []
