"""body._merge for an `if` without `else` (its else branch is `before` itself: no copy is made and
only the names the then branch changed are looked at) against the general merge of a then branch
with an unchanged copy of `before`, on random branches: names changed, added, set to None, dropped."""

import random

from kernelscope import symbolic as sx
from kernelscope.frontend import body
from kernelscope.frontend.body import Pointer, Value


def _general(condition, then_env, before):
    # the general path: the else branch a copy of `before` (what stmt_if_statement passed before)
    return body._merge(condition, then_env, dict(before), before)


def _same(first: dict, second: dict) -> bool:
    """Equal key order and, name by name, the same object or Selects built alike."""
    if list(first) != list(second):
        return False
    for name, a in first.items():
        b = second[name]
        if isinstance(a, Value) and isinstance(a.expr, sx.Select) and a is not b:
            if not (isinstance(b, Value) and isinstance(b.expr, sx.Select)
                    and (a.expr.condition, a.expr.if_true, a.expr.if_false, a.ctype, a.dims, a.pointer)
                    == (b.expr.condition, b.expr.if_true, b.expr.if_false, b.ctype, b.dims, b.pointer)):
                return False
        elif a is not b:
            return False
    return True


def test_merge_without_else_is_the_merge_with_an_unchanged_else():
    chooser = random.Random(8)
    condition = sx.Sym("c")
    pointer = Pointer("p", "global", sx.Const(0), "float")
    names = [f"v{k}" for k in range(9)]
    kinds = ("same", "changed", "new", "none", "dropped", "pointer", "pointer before")
    selects = 0
    for trial in range(500):
        before = {name: Value(sx.Sym(name), "int") for name in names[:chooser.randrange(len(names) + 1)]}
        if before and chooser.random() < 0.3:
            before[chooser.choice(list(before))] = None
        then_env = dict(before)
        for name in names:
            kind = chooser.choice(kinds)
            if kind == "changed" and name in before:
                then_env[name] = Value(sx.Sym(name + "'"), "float", None, (1, 2, 3))
            elif kind == "new":
                then_env[name] = Value(sx.Sym(name + "'"), "float")
            elif kind == "none":
                then_env[name] = None
            elif kind == "dropped":
                then_env.pop(name, None)
            elif kind == "pointer":
                then_env[name] = Value(sx.Const(0), "float*", pointer)
            elif kind == "pointer before" and name in before:
                before[name] = Value(sx.Const(0), "float*", pointer)
                then_env[name] = Value(sx.Sym(name + "'"), "float")
        frozen = dict(before)
        found = body._merge(condition, then_env, before, before)
        assert before == frozen and list(before) == list(frozen)       # (`before` is not written)
        expected = _general(condition, then_env, before)
        assert _same(found, expected), trial
        selects += sum(isinstance(v, Value) and isinstance(v.expr, sx.Select) for v in found.values())
    assert selects > 100        # (the random branches do build merged values)


def test_a_then_branch_change_the_shortcut_skipped_would_be_caught():
    condition = sx.Sym("c")
    before = {"x": Value(sx.Sym("x"), "int")}
    then_env = {"x": Value(sx.Sym("x'"), "int")}
    assert not _same(dict(before), _general(condition, then_env, before))
    merged = body._merge(condition, then_env, before, before)
    assert isinstance(merged["x"].expr, sx.Select) and _same(merged, _general(condition, then_env, before))
