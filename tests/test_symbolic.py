"""Symbolic expressions are DAGs: repeated subexpressions cost once, long chains do not recurse.

The costs are pinned by counting how often a node is evaluated (a counting subclass) rather than by
timing, so the tests say the same on a loaded machine.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from kernelscope import symbolic as sx

TID = sx.Sym("threadIdx.x")


class Counted(sx.Sym):
    """A name that counts how often its value is asked for."""
    __slots__ = ("calls",)

    def __init__(self, name):
        super().__init__(name)
        self.calls = 0

    def _combine(self, env, values):
        self.calls += 1
        return super()._combine(env, values)


def doubled(expr, times):
    for _ in range(times):
        expr = sx.Binary("+", expr, expr)     # `i = i + i;`: both operands are the same node
    return expr


def test_a_node_shared_by_every_level_is_evaluated_once():
    leaf = Counted("threadIdx.x")
    expr = doubled(leaf, 40)                  # 2**40 leaves as a tree, 41 nodes as a DAG
    lanes = np.arange(32, dtype=np.int64)
    assert np.array_equal(expr.evaluate({"threadIdx.x": lanes}), lanes * 2 ** 40)
    assert leaf.calls == 1


def test_doubling_forty_times_gives_the_product():
    value = doubled(sx.Sym("n"), 40).evaluate({"n": 3})
    assert value == 3 * 2 ** 40


def test_selects_that_read_the_previous_value_three_times_stay_linear():
    # `i = i > n ? i : i + 1;` 60 times: a tree would hold 3**60 copies of the first i
    leaf = Counted("i")
    expr = leaf
    for _ in range(60):
        expr = sx.Select(sx.Binary(">", expr, sx.Sym("n")), expr, sx.Binary("+", expr, sx.Const(1)))
    assert expr.evaluate({"i": 0, "n": 1000}) == 60
    assert leaf.calls == 1


def test_symbol_sets_and_properties_of_a_shared_dag_are_computed_without_blowing_up():
    expr = doubled(sx.Binary("*", TID, sx.Sym("n")), 200)
    assert expr.symbols() == {"threadIdx.x", "n"}
    assert sx.free_names(expr) == {"threadIdx.x", "n"}
    assert expr.thread_dependent
    assert not expr.has_load()


def test_carried_names_are_the_loop_updated_variables_read():
    first = sx.Sym("acc", default=sx.Const(0))
    step = sx.Sym("k", default=sx.Sym("start"))
    expr = doubled(sx.Binary("+", first, step), 100)
    assert sx.carried_names(expr) == {"acc", "k"}
    assert sx.free_names(expr) == {"start"}


def test_a_chain_deeper_than_the_recursion_limit_evaluates():
    expr = TID
    for _ in range(50_000):                   # `i = i + 1;` fifty thousand times
        expr = sx.Binary("+", expr, sx.Const(1))
    lanes = np.arange(32, dtype=np.int64)
    assert np.array_equal(expr.evaluate({"threadIdx.x": lanes}), lanes + 50_000)
    assert expr.symbols() == {"threadIdx.x"}


def test_the_first_operand_that_has_no_value_decides_the_error():
    load = sx.Load("a", TID)
    with pytest.raises(sx.Indirect):
        sx.Binary("+", load, sx.Sym("unbound")).evaluate({"threadIdx.x": 1})
    with pytest.raises(sx.Unbound):
        sx.Binary("+", sx.Sym("unbound"), load).evaluate({"threadIdx.x": 1})


def test_a_bound_name_hides_its_default():
    loop_var = sx.Sym("k", default=sx.Load("a", sx.Const(0)))
    assert loop_var.evaluate({"k": 5}) == 5
    with pytest.raises(sx.Indirect):
        loop_var.evaluate({})


def test_replace_loads_keeps_shared_nodes_shared():
    seen = []

    def stand_in(load):
        seen.append(load)
        return sx.Sym(f"@{len(seen)}")

    load = sx.Load("idx", TID)
    expr = doubled(sx.Binary("*", load, sx.Const(4)), 80)
    replaced = sx.replace_loads(expr, stand_in)
    assert len(seen) == 1                      # the one Load node, however many paths reach it
    assert replaced.evaluate({"@1": 2}) == 2 * 4 * 2 ** 80
    assert not replaced.has_load()


def test_substitution_folds_the_constants_it_brings_in():
    expr = sx.Binary("*", sx.Sym("TILE"), TID)
    assert isinstance(sx.substitute(expr, {"TILE": sx.Const(1)}), sx.Sym)


def _random_dag(rng, size):
    """Random expressions over shared nodes, some of which have no value (loads, unbound names)."""
    nodes = [TID, sx.Sym("n"), sx.Const(3), sx.Sym("k", default=sx.Const(2)), sx.Load("a", TID),
             sx.Sym("unbound")]
    for _ in range(size):
        kind = rng.integers(4)
        a, b, c = (nodes[i] for i in rng.integers(len(nodes), size=3))
        if kind == 0:
            nodes.append(sx.Binary(["+", "-", "*", "<"][rng.integers(4)], a, b))
        elif kind == 1:
            nodes.append(sx.Select(a, b, c))
        elif kind == 2:
            nodes.append(sx.Unary("-", a))
        else:
            nodes.append(sx.Call("max", (a, b)))
    return nodes


def _outcome(evaluate, expr, env):
    try:
        return np.asarray(evaluate(expr, env)).tolist()
    except sx.Unevaluable as exc:
        return type(exc).__name__, str(exc)


def test_recursive_evaluation_agrees_with_the_explicit_stack_on_values_and_errors():
    rng = np.random.default_rng(7)
    env = {"threadIdx.x": np.arange(32, dtype=np.int64), "n": 5}
    for _ in range(20):
        for expr in _random_dag(rng, 60)[6:]:
            assert _outcome(sx.evaluate, expr, env) == _outcome(sx._evaluate_deep, expr, env)


def test_a_chain_just_past_the_recursion_depth_reports_its_innermost_error():
    expr = sx.Binary("+", sx.Sym("unbound"), sx.Load("a", TID))
    for _ in range(sx.RECURSIVE_DEPTH + 5):
        expr = sx.Binary("+", expr, sx.Const(1))
    with pytest.raises(sx.Unbound):
        expr.evaluate({"threadIdx.x": 1})


def test_conditions_over_a_chain_reuse_the_chain_across_evaluations():
    # `i = i > n ? i : i + 1;` N times, then each statement's condition evaluated on its own, as the
    # divergence analysis does: without reuse between calls that is N**2 node evaluations
    leaf = Counted("i")
    chain, conditions = leaf, []
    for _ in range(sx.RECURSIVE_DEPTH + 10):      # deep enough for the explicit stack from the start
        chain = sx.Binary("+", chain, sx.Const(0))
    for _ in range(300):
        condition = sx.Binary(">", chain, sx.Sym("n"))
        conditions.append(condition)
        chain = sx.Select(condition, chain, sx.Binary("+", chain, sx.Const(1)))
    lanes = np.arange(32, dtype=np.int64)
    env = {"i": lanes, "n": 1000}
    counted = CountingBinary.install()
    try:
        for condition in conditions:
            condition.evaluate({**env})               # a fresh dict each time, same values
    finally:
        CountingBinary.uninstall()
    assert counted["calls"] < 20 * len(conditions) + 2 * sx.RECURSIVE_DEPTH    # a few nodes per condition
    assert np.array_equal(conditions[-1].evaluate(env), np.zeros(32, dtype=np.int64))


def test_a_remembered_value_is_not_reused_when_the_environment_differs():
    chain, depth = TID, sx.RECURSIVE_DEPTH + 10      # remembered values live on the explicit stack's path
    for _ in range(depth):
        chain = sx.Binary("+", chain, sx.Sym("step"))
    assert chain.evaluate({"threadIdx.x": 0, "step": 1}) == depth
    assert chain.evaluate({"threadIdx.x": 0, "step": 2}) == 2 * depth
    lanes = np.arange(4, dtype=np.int64)
    first = chain.evaluate({"threadIdx.x": lanes, "step": 1})
    assert np.array_equal(chain.evaluate({"threadIdx.x": lanes + 0, "step": 1}), lanes + depth)
    with pytest.raises(ValueError):
        first += 1                                     # shared results are read-only


class CountingBinary:
    """Counts Binary node evaluations by wrapping Binary._combine for the duration of a test."""
    original = None
    counts: dict = {}

    @classmethod
    def install(cls):
        cls.original = sx.Binary._combine
        cls.counts = {"calls": 0}

        def counting(node, env, values):
            cls.counts["calls"] += 1
            return cls.original(node, env, values)

        sx.Binary._combine = counting
        return cls.counts

    @classmethod
    def uninstall(cls):
        sx.Binary._combine = cls.original


def test_a_remembered_value_depends_on_the_atomic_results_it_reads():
    slot = sx.AtomicResult("atomicAdd", 3, 5)
    chain, depth = sx.Binary("+", slot, TID), sx.RECURSIVE_DEPTH + 10
    for _ in range(depth):
        chain = sx.Binary("+", chain, sx.Const(1))
    assert chain.evaluate({"threadIdx.x": 0, slot.key: 7}) == 7 + depth
    assert chain.evaluate({"threadIdx.x": 0, slot.key: 9}) == 9 + depth


def _walked(expr, own):
    """A property recomputed by a plain walk over the tree, to check what constructors stored."""
    return own(expr, [_walked(child, own) for child in expr.children()])


def _names(expr, inner):
    found = frozenset().union(*inner)
    return found | {expr.name} if isinstance(expr, sx.Sym) else found


def _free(expr, inner):
    if isinstance(expr, sx.Sym) and expr.default is None:
        return frozenset({expr.name})
    return frozenset().union(*inner)


def _carried(expr, inner):
    found = frozenset().union(*inner)
    return found | {expr.name} if isinstance(expr, sx.Sym) and expr.default is not None else found


def _loads(expr, inner):
    return isinstance(expr, (sx.Load, sx.Opaque)) or any(inner)


def _depth(expr, inner):
    return 1 + max(inner, default=0)


def test_what_constructors_store_is_what_a_walk_of_the_tree_finds():
    rng = np.random.default_rng(11)
    for _ in range(5):
        for expr in _random_dag(rng, 40):
            assert expr.symbols() == _walked(expr, _names)
            assert sx.free_names(expr) == _walked(expr, _free)
            assert sx.carried_names(expr) == _walked(expr, _carried)
            assert expr.has_load() == _walked(expr, _loads)
            assert expr._depth == _walked(expr, _depth)


def test_a_deep_chain_goes_to_the_explicit_stack_without_a_recursive_attempt(monkeypatch):
    chain = TID
    for _ in range(sx.RECURSIVE_DEPTH + 5):
        chain = sx.Binary("+", chain, sx.Const(1))
    attempts = []
    original = sx._operands
    monkeypatch.setattr(sx, "_operands", lambda *args: attempts.append(1) or original(*args))
    assert chain.evaluate({"threadIdx.x": 2}) == 2 + sx.RECURSIVE_DEPTH + 5
    assert attempts == []


def test_shared_evaluation_reuses_values_and_agrees_with_a_fresh_one():
    rng = np.random.default_rng(5)
    env = {"threadIdx.x": np.arange(32, dtype=np.int64), "n": 5, "unbound": 7}
    values: dict = {}
    for expr in _random_dag(rng, 80)[6:]:
        assert _outcome(lambda e, en: sx.evaluate_shared(e, en, values), expr, env) == _outcome(sx.evaluate, expr, env)
    assert values, "inner nodes are kept for the next expression"


def _index_tree(name="n"):
    tid = sx.Sym("threadIdx.x")
    return sx.binary("<", sx.binary("+", sx.binary("*", sx.Sym("blockIdx.x"), sx.Sym("blockDim.x")), tid), sx.Sym(name))


def test_trees_built_alike_share_a_structure_key_and_others_do_not():
    assert sx.structure_key(_index_tree()) == sx.structure_key(_index_tree())
    assert sx.structure_key(_index_tree("n")) != sx.structure_key(_index_tree("m"))
    constants = [sx.Const(1), sx.Const(1.0), sx.Const(True), sx.Const(0.0), sx.Const(-0.0)]
    assert len({sx.structure_key(c) for c in constants}) == len(constants)
    loop = sx.Sym("i", default=sx.Const(0))
    assert sx.structure_key(loop) != sx.structure_key(sx.Sym("i"))
    assert sx.structure_key(loop) != sx.structure_key(sx.Sym("i", default=sx.Const(1)))
    assert sx.structure_key(sx.Binary("-", TID, sx.Sym("n"))) != sx.structure_key(sx.Binary("-", sx.Sym("n"), TID))
    assert sx.structure_key(sx.Load("a", TID)) != sx.structure_key(sx.Load("b", TID))


def test_c_division_by_a_positive_constant_truncates_toward_zero_like_the_general_path():
    mixed = np.array([-65, -64, -63, -1, 0, 1, 31, 32, 33, 2**62, -(2**62)], dtype=np.int64)
    # (lanes that are never negative, such as thread indices, take a shorter path of their own)
    for lanes, divisor in itertools.product((mixed, mixed[mixed >= 0]), (1, 3, 32, 2**40)):
        fast = sx.apply_binary("/", lanes, divisor)
        general = sx.apply_binary("/", lanes, np.full(lanes.size, divisor, dtype=np.int64))
        assert fast.dtype == general.dtype == np.int64 and np.array_equal(fast, general)
        assert np.array_equal(sx.apply_binary("%", lanes, divisor), lanes - general * divisor)
        assert [int(v) for v in fast] == [int(v / divisor) if abs(v) < 2**52 else -(-v // divisor) if v < 0 else v // divisor
                                          for v in lanes.tolist()]


def _env(expr, inner):
    found = frozenset().union(*inner)
    if isinstance(expr, sx.Sym):
        return found | {expr.name}
    if isinstance(expr, sx.AtomicResult):
        return found | {expr.key}
    return found


def test_name_sets_stay_right_when_nodes_share_them():
    # Constructors hand a node the same set object for names that agree (and one set for every
    # union of the same two sets): atomics and loop variables are where the four sets differ.
    rng = np.random.default_rng(5)
    for _ in range(5):
        nodes = [TID, sx.Sym("n"), sx.AtomicResult("atomicAdd", 3, 7), sx.Const(4),
                 sx.Sym("i", default=sx.Binary("+", TID, sx.Sym("n"))), sx.Load("a", sx.Sym("m"))]
        for _ in range(60):
            a, b = (nodes[k] for k in rng.integers(len(nodes), size=2))
            kind = rng.integers(4)
            if kind == 0:
                nodes.append(sx.binary(["+", "*", "<"][rng.integers(3)], a, b))
            elif kind == 1:
                nodes.append(sx.Sym(f"v{len(nodes) % 3}", default=a, varying=bool(rng.integers(2))))
            elif kind == 2:
                nodes.append(sx.Opaque("f", (a, b)))
            else:
                nodes.append(sx.Load("b", a))
        for expr in nodes:
            assert expr.symbols() == _walked(expr, _names)
            assert sx.free_names(expr) == _walked(expr, _free)
            assert sx.carried_names(expr) == _walked(expr, _carried)
            assert expr._env_names == _walked(expr, _env)


def _summary(node) -> tuple:
    return (node._weight, node._depth, node._symbols, node._free_names, node._carried, node._env_names,
            node._has_load)


def _general_summary(node, children, loads) -> tuple:
    """What the general _summarise gives for a node over these children."""
    class Probe:
        pass
    probe = Probe()
    sx._summarise(probe, tuple(children), loads)
    return (probe._weight, probe._depth, probe._symbols, probe._free_names, probe._carried, probe._env_names,
            probe._has_load)


_OPERANDS = [sx.Const(3), sx.Sym("n"), sx.Sym("i", default=sx.Sym("threadIdx.x")), sx.Load("a", sx.Sym("k")),
             sx.Sym("j", default=sx.Const(0)) + sx.Sym("m"), sx.AtomicResult("atomicAdd", 3, 4) * sx.Sym("n")]


@pytest.mark.parametrize("operand", _OPERANDS, ids=str)
def test_loads_and_opaque_values_summarise_their_operands_as_the_general_path_does(operand):
    # Load and Opaque write _summarise out for their commonest shapes (one child, no operands)
    load = sx.Load("b", operand)
    assert _summary(load) == _general_summary(load, (operand,), True)
    assert _summary(sx.Opaque("f", (operand,))) == _general_summary(None, (operand,), True)
    assert _summary(sx.Opaque("g")) == _general_summary(None, (), True)


def _plain_binary(op, left, right):
    """sx.binary without its shortcut for operands it never folds: every operand through the
    constant tests."""
    left = left if isinstance(left, sx.Expr) else sx.Const(left)
    right = right if isinstance(right, sx.Expr) else sx.Const(right)
    left_const, right_const = isinstance(left, sx.Const), isinstance(right, sx.Const)
    if left_const and right_const:
        try:
            return sx.Const(sx.apply_binary(op, left.value, right.value))
        except (sx.Unevaluable, ZeroDivisionError, ArithmeticError, TypeError, ValueError):
            pass
    if op == "+" and left_const and left.value == 0 or op in ("*",) and left_const and left.value == 1:
        return right
    if op in ("+", "-", ">>") and right_const and right.value == 0 or op in ("*", "/") and right_const and \
            right.value == 1:
        return left
    if op == "*" and (left_const and left.value == 0 or right_const and right.value == 0):
        return sx.Const(0)
    return sx.Binary(op, left, right)


_BINARY_OPERANDS = [0, 1, 2, 0.0, 1.0, sx.Const(0), sx.Const(1), sx.Const(5), TID, sx.Sym("n", default=sx.Const(4)),
                    sx.Load("a", TID), sx.Opaque("f", (TID,)), sx.AtomicResult("atomicAdd", 1, 2), TID + 1,
                    sx.Unary("-", TID), sx.Select(TID, TID, sx.Const(2)), sx.Call("min", (TID, sx.Const(3))),
                    Counted("c")]


@np.errstate(all="ignore")        # (constants divided by zero fold to inf or stay unfolded: both paths alike)
def _binary_disagreements(build) -> list:
    return [(op, str(a), str(b)) for op in ("+", "-", "*", "/", ">>", "<", "&&")
            for a, b in itertools.product(_BINARY_OPERANDS, repeat=2)
            if sx.structure_key(build(op, a, b)) != sx.structure_key(_plain_binary(op, a, b))]


def test_binary_folds_and_builds_as_the_plain_rules_say():
    assert _binary_disagreements(sx.binary) == []


def test_a_shortcut_that_skips_folding_is_caught(monkeypatch):
    monkeypatch.setattr(sx, "_FOLDLESS", sx._FOLDLESS | {sx.Const})
    assert _binary_disagreements(sx.binary) != []
