"""A subscript's byte offset is built by sx.element_offset, which writes out for the usual operands
(an index nothing folds, a positive int stride, an offset that is constant zero or that nothing
folds) what sx.binary("+", offset, sx.binary("*", index, stride)) answers. It must answer the same
node, shared the same way, for every mix of operands at the edges of those conditions, and every
project kernel's model must be the one the two binary() calls give; a shortcut that dropped the
stride would be caught."""

import itertools

import pytest

from kernelscope import symbolic as sx
from kernelscope.frontend import body
from test_walker_fast_paths import CUDA_FILES, digests


class _OwnSym(sx.Sym):
    """A subclass: binary() does not treat it as its class (it is not shared either)."""


def _offsets():
    i, j = sx.Sym("i"), sx.Sym("j")
    return [sx.shared_const(0), sx.Const(0), sx.Const(0.0), sx.Const(False), sx.Const(8), sx.Const(-4),
            sx.Sym("o"), sx.binary("*", i, 4), sx.Load("a", i), sx.Opaque("f", (j,)),
            sx.Select(i, j, sx.Const(1)), sx.Unary("-", j), _OwnSym("own"),
            sx.Sym("v", default=sx.Const(3))]


def _indices():
    i = sx.Sym("i")
    return [i, sx.Sym("k", default=i, varying=True), sx.binary("+", i, sx.Sym("n")), sx.Load("idx", i),
            sx.Opaque("h", (i,), thread_varying=True), sx.Call("min", (i, sx.Const(3))), sx.Const(0),
            sx.Const(5), sx.Const(2.5), sx.Unary("-", i), _OwnSym("t"), sx.AtomicResult("atomicAdd", 3, 4)]


STRIDES = [1, 2, 4, 8, 12, 16, 0, -4, True, 4.0, 1 << 40]


def _node_signature(node):
    return type(node), node._key


def _same_answer(fast, general, operands) -> bool:
    """Built alike; and the very node where binary hands out one it did not build just now (an
    operand, or a Binary of the file's shared table), where each call builds its own otherwise
    (a folded Const, a Binary of a subclass's operands)."""
    if _node_signature(fast) != _node_signature(general):
        return False
    reused = any(general is operand for operand in operands) or \
        isinstance(general, sx.Binary) and \
        sx._BINARY_NODES.get((general.op, general.left._key, general.right._key)) is general
    return fast is general if reused else not any(fast is operand for operand in operands)


@pytest.mark.parametrize("fast_first", [True, False])
def test_element_offset_answers_what_the_two_binary_calls_answer(fast_first):
    disagreements = []
    for offset, index, stride in itertools.product(_offsets(), _indices(), STRIDES):
        sx.forget_file_tables()
        if fast_first:
            fast = sx.element_offset(offset, index, stride)
            general = sx.binary("+", offset, sx.binary("*", index, stride))
        else:
            general = sx.binary("+", offset, sx.binary("*", index, stride))
            fast = sx.element_offset(offset, index, stride)
        if not _same_answer(fast, general, (offset, index)):
            disagreements.append((str(offset), str(index), stride, str(fast), str(general)))
    assert disagreements == []


def test_the_shortcut_is_taken_for_the_usual_operands():
    """(the comparison above is of the shortcut, not only of its fallback)"""
    sx.forget_file_tables()
    i = sx.Sym("i")
    calls = []
    binary = sx.binary
    try:
        sx.binary = lambda *a: calls.append(a) or binary(*a)
        sx.element_offset(sx.shared_const(0), i, 4)
        sx.element_offset(sx.Sym("o"), i, 1)
    finally:
        sx.binary = binary
    assert calls == []


def _two_binary_calls(patched):
    patched.setattr(sx, "element_offset", lambda offset, index, stride:
                    sx.binary("+", offset, sx.binary("*", index, stride)))


def test_models_are_those_of_the_two_binary_calls(monkeypatch):
    assert digests(monkeypatch, CUDA_FILES, general_path=_two_binary_calls) == []


def test_a_shortcut_that_drops_the_stride_is_caught(monkeypatch):
    element_offset = sx.element_offset

    def broken(patched):
        patched.setattr(sx, "element_offset", lambda offset, index, stride: element_offset(offset, index, 1))

    paths = CUDA_FILES[:40]
    assert digests(monkeypatch, paths, general_path=_two_binary_calls, fast_patch=broken) != []
