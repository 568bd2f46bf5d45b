"""syncfast21: `Memo.reading` reads an expression's `_has_load` and `_symbols` slots instead of
calling `has_load()` and `symbols()`, reads a tuple of conditions with `_conditions_read` (the
general path builds the tuple of their expressions and calls `_names_read`), and takes its tuple
of _ABSENTs from a table. Compared here with the general path on every memo key a block of real
kernels asks, on conditions that load, that hold a non-expression or None, and on more varying
names than the table holds."""

from __future__ import annotations

from types import SimpleNamespace

from kernelscope import symbolic as sx
from kernelscope.analyses import sync
from kernel_bodies import named_kernels

FILES = ["examples/reduction.cu", "corpus/bitonic_sort/shared_network.cu", "corpus/attention_scores/register_blocked.cu",
         "corpus/matmul/register_blocked.cu", "tests/kernels/sync/race_war_tile_loop.cu"]


def _general(memo, what) -> tuple:
    """`Memo.reading` as it was: method calls and `_names_read(_expressions_of(...))` throughout."""
    if isinstance(what, sx.Expr):
        names = None if what.has_load() else what.symbols()
    else:
        names = sync._names_read(_general_expressions_of(what))
    if names is None:
        return what, None, None, False
    changing = tuple(memo.varying.intersection(names))
    return what, changing, (sync._ABSENT,) * len(changing), not sync._BLOCK_INDEX.isdisjoint(names)


def _general_expressions_of(what) -> tuple:
    return sync._expressions_of(what)


def _names_by_methods(expressions):
    names: set = set()
    for expr in expressions:
        if expr is None:
            continue
        if not isinstance(expr, sx.Expr) or expr.has_load():
            return None
        names |= expr.symbols()
    return names


def test_reading_matches_the_general_path_on_every_key_asked(monkeypatch):
    asked = []
    reading = sync.Memo.reading

    def spy(memo, what):
        asked.append((memo, what))
        return reading(memo, what)

    monkeypatch.setattr(sync.Memo, "reading", spy)
    for _, kernel in named_kernels({}, FILES):
        sync.analyze(kernel, (256, 1, 1), {"n": 4096, "len": 512, "seq": 128, "dim": 64}, grid=(2, 1, 1))
    kinds = set()
    for memo, what in asked:
        kinds.add(type(what).__name__)
        assert reading(memo, what) == _general(memo, what)
        if not isinstance(what, sx.Expr):
            assert sync._names_read(sync._expressions_of(what)) == _names_by_methods(sync._expressions_of(what))
    assert {"tuple", "Binary", "Loop"} <= kinds


def _condition(expr):
    return SimpleNamespace(expr=expr)


def test_conditions_read_against_the_general_path():
    tid, n = sx.Sym("threadIdx.x"), sx.Sym("n")
    less = sx.binary("<", tid, n)
    loaded = sx.binary("<", sx.Load("a", tid), n)
    cases = [(), (_condition(less),), (_condition(less), _condition(None)), (_condition(less), _condition(loaded)),
             (_condition(loaded),), (_condition(3),), (_condition(sx.binary("==", sx.Sym("blockIdx.x"), n)),)]
    for conditions in cases:
        assert sync._conditions_read(conditions) == _names_by_methods([c.expr for c in conditions])
    assert sync._conditions_read(cases[3]) is None and sync._conditions_read(cases[5]) is None


def test_absent_table_and_more_names_than_it_holds():
    names = [f"v{k}" for k in range(40)]
    expr = sx.Sym(names[0])
    for name in names[1:]:
        expr = sx.binary("+", expr, sx.Sym(name))
    for count in (0, 1, 15, 16, 17, 40):
        memo = sync.Memo(frozenset(names[:count]))
        found = memo.reading(expr)
        assert found == _general(memo, expr)
        assert len(found[2]) == count and all(a is sync._ABSENT for a in found[2])


def test_slots_are_what_the_methods_return():
    tid = sx.Sym("threadIdx.x")
    for expr in (sx.Const(3), tid, sx.binary("*", tid, 4), sx.Load("a", tid), sx.binary("+", sx.Load("a", tid), 1),
                 sx.Select(sx.binary("<", tid, 4), tid, sx.Const(0))):
        assert expr._has_load == expr.has_load() and expr._symbols == expr.symbols()
