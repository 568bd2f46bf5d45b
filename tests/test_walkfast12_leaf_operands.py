"""Walker._binary_parts reads two thirds of its operands without _operand's call: a name whose
Value is not memory, a number read before (its parts kept in body._NUMBERS) and, by a direct call
of _binary_parts, a binary expression. The model must be what _operand's path builds (the kind sets
that switch the shortcuts emptied), on every CUDA file of the project, compared by the digest of
tests/test_walker_fast_paths.py (which names expression nodes by first-met order, so that sharing
must agree too); shortcuts broken on purpose are caught."""

import sys

import pytest

from kernelscope.frontend import body
from kernelscope.frontend.parse import parse_file
from test_walker_fast_paths import CUDA_FILES, ROOT, digests, kind_sets_emptied

_SHORTCUTS = ("_LEAF_NAMES", "_LEAF_NUMBERS", "_NESTED_BINARIES")
_general = kind_sets_emptied(*_SHORTCUTS)


def _differing(monkeypatch, fast_patch=None) -> list:
    return digests(monkeypatch, CUDA_FILES, _general, fast_patch)


def test_operands_read_alone_are_what_operand_builds(monkeypatch):
    body._load_kind_tables()
    assert all(getattr(body, name) for name in _SHORTCUTS)    # (the shortcuts are on)
    assert _differing(monkeypatch) == []


def test_each_shortcut_alone_is_what_operand_builds(monkeypatch):
    for name in _SHORTCUTS:
        others = [other for other in _SHORTCUTS if other != name]
        assert _differing(monkeypatch, kind_sets_emptied(*others)) == []


def _operand_calls(monkeypatch, general: bool) -> int:
    calls = []
    operand = body.Walker._operand

    def counting(walker, node, depth):
        calls.append(node.kind_id)
        return operand(walker, node, depth)

    body._load_kind_tables()
    with monkeypatch.context() as patched:
        if general:
            _general(patched)
        patched.setattr(body.Walker, "_operand", counting)
        for path in sorted((ROOT / "examples").glob("*.cu")):
            parse_file(path.read_text(), str(path))
    return len(calls)


def test_the_shortcuts_are_taken(monkeypatch):
    """Most operands skip _operand: the comparison above compares the shortcuts, not the fallback."""
    assert _operand_calls(monkeypatch, general=False) * 2 < _operand_calls(monkeypatch, general=True)


def _asked_by_binary_parts() -> bool:
    return sys._getframe(2).f_code.co_name == "_binary_parts"


class _MemoryHidden(dict):
    """An env whose names, as _binary_parts's shortcut reads them, are never memory: a shared
    scalar (`__shared__ int hits;`) read in a binary expression without recording its load."""

    def get(self, key, default=None):
        value = super().get(key, default)
        if value is not None and value.location is not None and _asked_by_binary_parts():
            return body.Value(value.expr, value.ctype, value.pointer, value.dims, None)
        return value


def _hide_memory(monkeypatch):
    """(every env a walk holds, the first one and those of branches, merges and inlined calls)"""
    def held(walker):
        return walker.__dict__["_hiding_env"]

    def hold(walker, env):
        walker.__dict__["_hiding_env"] = env if isinstance(env, _MemoryHidden) else _MemoryHidden(env)

    monkeypatch.setattr(body.Walker, "env", property(held, hold), raising=False)


class _Retyped(dict):
    """Numbers as the shortcut reads them typed `double`."""

    def get(self, key, default=None):
        found = super().get(key, default)
        return (found[0], "double") if found is not None and _asked_by_binary_parts() else found


def _retype_numbers(monkeypatch):
    monkeypatch.setattr(body, "_NUMBERS", _Retyped(body._NUMBERS))


def _untyped_nested(monkeypatch):
    """A binary operand's parts, asked directly, without their type."""
    parts = body.Walker._binary_parts

    def untyped(walker, node, depth):
        value, expr, ctype, pointer = parts(walker, node, depth)
        if sys._getframe(1).f_code.co_name == "_binary_parts":
            return value, expr, None, pointer
        return value, expr, ctype, pointer

    monkeypatch.setattr(body.Walker, "_binary_parts", untyped)


@pytest.mark.parametrize("broken", [_hide_memory, _retype_numbers, _untyped_nested])
def test_a_broken_operand_read_is_caught(monkeypatch, broken):
    assert _differing(monkeypatch, broken) != []
