"""sx.binary answers an operand that nothing folds beside a constant that the operator does not fold
away (`i * 4`, `n - 1`, `4 * i`) from the file's shared Binary table at once, without the general
path's checks (_binary_general). It must answer what the general path answers, the same node where
that one is shared, for every operator and every mix of operands at the edges of those conditions
(constants 0 and 1 as ints, floats and bools, subclasses, plain numbers), and every project
kernel's model must be the one the general path gives; a shortcut that folded nothing would be
caught."""

import itertools
import math

import pytest

from kernelscope import symbolic as sx
from test_walker_fast_paths import CUDA_FILES, digests
from test_walkfast7_element_offset import _same_answer


class _OwnSym(sx.Sym):
    """A subclass: binary() does not treat it as its class (it is not shared either)."""


class _OwnConst(sx.Const):
    """A constant of a subclass: the general path folds it, but shares no Binary of it."""


pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")   # (folding 1 / 0.0 and the like)

OPERATORS = sorted(sx.BINARY_OPERATORS) + ["?"]


def _operands():
    i, j = sx.Sym("i"), sx.Sym("j")
    constants = [sx.Const(value) for value in (0, 1, -1, 2, 4, 0.0, 1.0, -0.0, 2.5, True, False, math.nan, 1 << 40)]
    return constants + [sx.shared_const(0), sx.shared_const(1), sx.shared_const(4), _OwnConst(4), _OwnConst(0),
                        0, 1, 4, 2.5, True,
                        i, sx.shared_sym("n"), sx.Sym("k", default=i, varying=True), sx.Load("a", i),
                        sx.Binary("*", i, sx.Const(4)), sx.Opaque("f", (j,)), sx.Unary("-", j),
                        sx.Select(i, j, sx.Const(1)), sx.Call("min", (i, sx.Const(3))),
                        sx.AtomicResult("atomicAdd", 3, 4), _OwnSym("own")]


def _answer(build):
    try:
        return build(), None
    except Exception as error:      # (both paths must fail alike where one does)
        return None, type(error)


@pytest.mark.parametrize("fast_first", [True, False])
def test_binary_answers_what_the_general_path_answers(fast_first):
    disagreements = []
    operands = _operands()
    for op, left, right in itertools.product(OPERATORS, operands, operands):
        if left.__class__ in sx._FOLDLESS and right.__class__ in sx._FOLDLESS:
            continue    # (binary shares these where the general path builds its own: walkfast2's tests)
        sx.forget_file_tables()
        if fast_first:
            fast, fast_error = _answer(lambda: sx.binary(op, left, right))
            general, general_error = _answer(lambda: sx._binary_general(op, left, right))
        else:
            general, general_error = _answer(lambda: sx._binary_general(op, left, right))
            fast, fast_error = _answer(lambda: sx.binary(op, left, right))
        if fast_error or general_error:
            agree = fast_error is general_error
        else:
            agree = _same_answer(fast, general, (left, right))
        if not agree:
            disagreements.append((op, str(left), str(right), str(fast), str(general)))
    assert disagreements == []


def test_the_shortcut_is_taken_for_constants_nothing_folds(monkeypatch):
    """(the comparison above is of the shortcut, not only of its fallback)"""
    sx.forget_file_tables()
    i = sx.Sym("i")
    calls = []
    general = sx._binary_general
    monkeypatch.setattr(sx, "_binary_general", lambda *a: calls.append(a) or general(*a))
    shortcut = [sx.binary("*", i, sx.Const(4)), sx.binary("-", i, sx.Const(1)), sx.binary("<", i, sx.Const(0)),
                sx.binary("*", sx.Const(4), i), sx.binary("-", sx.Const(0), i), sx.binary("/", sx.Const(1), i)]
    assert calls == []
    assert all(isinstance(node, sx.Binary) for node in shortcut)
    assert sx.binary("*", i, sx.Const(4)) is shortcut[0]
    folded = [sx.binary("+", i, sx.Const(0)), sx.binary("*", sx.Const(1), i), sx.binary("/", i, sx.Const(1.0))]
    assert len(calls) == 3 and all(node is i for node in folded)


def _general_binary(patched):
    """binary() with its shortcuts for constants taken away (operands nothing folds kept)."""
    def binary(op, left, right):
        if left.__class__ in sx._FOLDLESS and right.__class__ in sx._FOLDLESS:
            return sx.shared_binary(op, left, right)
        return sx._binary_general(op, left, right)
    patched.setattr(sx, "binary", binary)


def test_models_are_those_of_the_general_path(monkeypatch):
    assert digests(monkeypatch, CUDA_FILES, general_path=_general_binary) == []


def test_a_shortcut_that_folds_nothing_is_caught(monkeypatch):
    def no_folds(patched):
        def binary(op, left, right):
            if isinstance(left, sx.Expr) and isinstance(right, sx.Expr) and \
                    left.__class__ in sx._SHAREABLE and right.__class__ in sx._SHAREABLE:
                return sx.shared_binary(op, left, right)
            return sx._binary_general(op, left, right)
        patched.setattr(sx, "binary", binary)

    assert digests(monkeypatch, CUDA_FILES[:40], general_path=_general_binary, fast_patch=no_folds) != []


def test_new_shared_binary_keeps_what_shared_binary_would_build():
    """The callers that looked a signature up themselves build the missing node by
    new_shared_binary: the node shared_binary would build, kept where shared_binary finds it."""
    sx.forget_file_tables()
    i, n = sx.Sym("i"), sx.shared_const(4)
    signature = ("*", i._key, n._key)
    built = sx.new_shared_binary(signature, "*", i, n)
    assert (type(built), built.op, built.left, built.right) == (sx.Binary, "*", i, n)
    assert built._key == sx.Binary("*", i, n)._key
    assert sx.shared_binary("*", i, n) is built and sx.binary("*", i, n) is built
    assert sx.element_offset(sx.shared_const(0), i, 4) is built


def test_new_shared_binary_keeps_the_table_bounded(monkeypatch):
    sx.forget_file_tables()
    monkeypatch.setattr(sx, "_MAX_BINARY_NODES", 3)
    names = [sx.Sym(name) for name in "abcde"]
    for left, right in zip(names, names[1:]):
        sx.new_shared_binary(("+", left._key, right._key), "+", left, right)
    assert 1 <= len(sx._BINARY_NODES) <= 3
    sx.forget_file_tables()
