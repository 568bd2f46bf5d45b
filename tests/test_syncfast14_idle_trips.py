"""syncfast14: `BlockRun.iterate` stops walking a loop of plain loads and stores once an iteration
after the first would change nothing (`idle_from_here`): every access is either a read-only array's
access whose unknown address is noted, or one already in the interval with an unknown address whose
address surely fails again (`_fails_where_unknown`: it reads, in arithmetic, a value the loop
carries and so has forgotten). Only the steps of the remaining trips are counted.

- `_STRICT_OPERATORS`: each raises an error `BlockRun.evaluate` catches when either operand is
  loops.UNKNOWN, on ints, floats, numpy scalars and arrays; `&&` would not (and is left out).
- `_fails_where_unknown` never claims a failure that evaluation does not have, on random
  expressions over an unknown name, bound names, constants, selects and calls; a variant that
  takes `&&` for strict is caught.
- The findings (races, barriers, notes, trip counts) of every project kernel and of kernels built
  for it equal those with the idle check off, at two block shapes; a variant that ignores whether
  the access is in the interval already is caught.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernelscope import symbolic as sx
from kernelscope.analyses import sync
from kernelscope.analyses.loops import UNKNOWN
from kernelscope.analyses.threads import UNEVALUABLE
from kernel_bodies import kernel_of
from project_sources import project_kernels

OPERANDS = [0, 3, -2, 2.5, np.int64(7), np.float32(1.5), np.arange(4, dtype=np.int64), np.arange(-2, 2),
            np.linspace(0.0, 1.0, 4), np.array([True, False, True, True])]


@pytest.mark.parametrize("op", sorted(sync._STRICT_OPERATORS))
def test_strict_operators_raise_on_an_unknown_operand(op):
    apply = sx._BINARY[op]
    for other in OPERANDS:
        for left, right in ((UNKNOWN, other), (other, UNKNOWN), (UNKNOWN, UNKNOWN)):
            with pytest.raises(UNEVALUABLE):
                apply(left, right)


def test_logical_and_is_not_strict():
    # (why `&&` and `||` are left out: a false left operand decides without the right one)
    assert sx._BINARY["&&"](0, UNKNOWN) == 0
    assert "&&" not in sync._STRICT_OPERATORS and "||" not in sync._STRICT_OPERATORS


def _random_expr(rng, depth: int):
    if depth == 0 or rng.random() < 0.25:
        choice = rng.integers(0, 4)
        if choice == 0:
            return sx.Sym("u", default=sx.Const(1))      # carried: bound to UNKNOWN below
        if choice == 1:
            return sx.Sym("a")
        if choice == 2:
            return sx.Sym("v", default=sx.Const(2))      # carried by an outer loop: has a value
        return sx.Const(int(rng.integers(-3, 4)))
    kind = rng.integers(0, 10)
    if kind < 6:
        op = str(rng.choice(sorted(sx._BINARY)))
        return sx.Binary(op, _random_expr(rng, depth - 1), _random_expr(rng, depth - 1))
    if kind < 7:
        return sx.Unary(str(rng.choice(["-", "~", "!", "+"])), _random_expr(rng, depth - 1))
    if kind < 9:
        return sx.Select(*(_random_expr(rng, depth - 1) for _ in range(3)))
    return sx.Call(str(rng.choice(["min", "max", "abs"])), (_random_expr(rng, depth - 1),) +
                   ((_random_expr(rng, depth - 1),) if rng.random() < 0.5 else ()))


def _evaluation_fails(expr, env) -> bool:
    try:
        value = expr.evaluate(env)
    except UNEVALUABLE:
        return True
    return value is UNKNOWN     # (not a number either: one_per_thread refuses it)


def _claims_checked(seed: int) -> tuple[int, int]:
    """(claims of a failure, expressions) over random expressions; asserts each claim holds."""
    rng = np.random.default_rng(seed)
    claims = 0
    names = frozenset({"u"})
    for _ in range(300):
        expr = _random_expr(rng, int(rng.integers(1, 5)))
        if not sync._fails_where_unknown(expr, names):
            continue
        claims += 1
        for a in (0, 1, -3, np.arange(8), np.zeros(8, dtype=np.int64), np.ones(8) * 0.5):
            for v in (0, 5, np.arange(8)):
                env = {"u": UNKNOWN, "a": a, "v": v}
                assert _evaluation_fails(expr, env), (str(expr), a, v)
    return claims, 300


def test_kept_answers_are_by_structure(monkeypatch):
    # equal trees built apart share the kept answer; a different tree or other names do not
    monkeypatch.setattr(sync, "_FAILING_STRUCTURES", {})

    def index(name):
        return sx.Binary("+", sx.Binary("*", sx.Sym(name, default=sx.Const(0)), sx.Const(7)), sx.Sym("j"))

    u = frozenset({"u"})
    assert sync._fails_where_unknown(index("u"), u) and sync._fails_where_unknown(index("u"), u)
    assert len(sync._FAILING_STRUCTURES) == 1
    assert not sync._fails_where_unknown(index("w"), u)
    assert sync._fails_where_unknown(index("w"), frozenset({"w"}))
    rng = np.random.default_rng(3)
    for _ in range(200):
        expr = _random_expr(rng, 3)
        if sync._fails_where_unknown(expr, u):
            assert sync._unknown_effect(expr, u, {}) is sync._RAISES


@pytest.mark.parametrize("seed", range(12))
def test_claimed_failures_fail(seed):
    claims, _ = _claims_checked(seed)
    assert claims > 20     # (the claims are checked, not vacuous)


def test_a_non_strict_and_is_caught(monkeypatch):
    monkeypatch.setattr(sync, "_STRICT_OPERATORS", sync._STRICT_OPERATORS | {"&&", "||"})
    monkeypatch.setattr(sync, "_FAILING_STRUCTURES", {})     # (no answer kept from the right operators)
    with pytest.raises(AssertionError):
        for seed in range(12):
            _claims_checked(seed)


def test_fails_where_unknown_on_a_plain_index():
    u, j = sx.Sym("u", default=sx.Const(0)), sx.Sym("j", default=sx.Const(0))
    index = sx.Binary("+", sx.Binary("*", u, sx.Const(7)), j)
    assert sync._fails_where_unknown(index, frozenset({"u"}))
    assert not sync._fails_where_unknown(index, frozenset({"w"}))
    # (a select of an unknown condition is not judged; one that computes with it in every operand is)
    assert not sync._fails_where_unknown(sx.Select(u, j, sx.Const(1)), frozenset({"u"}))
    assert sync._fails_where_unknown(sx.Select(sx.Unary("-", u), j, sx.Const(1)), frozenset({"u"}))


# -- whole analyses ------------------------------------------------------------------------------

BODIES = {
    # the register-tile shape: an inner loop whose index reads what its enclosing loop sets
    "tile": """
    __shared__ float w[64];
    __shared__ float t[256];
    t[threadIdx.x] = x[threadIdx.x];
    if (threadIdx.x < 64) w[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    float acc = 0.0f;
    float row[7];
    for (int r = 0; r < 6; r++) {
        for (int dj = 0; dj < 7; dj++)
            row[dj] = t[(threadIdx.x + dj + r) % 256];
        for (int p = 0; p < 4; p++) {
            int di = r - p;
            if (di >= 0 && di < 7)
                for (int dj = 0; dj < 7; dj++)
                    acc += w[di * 7 + dj] * row[dj];
        }
    }
    y[threadIdx.x] = acc;
    """,
    # written in the inner loop: its unknown store must reach the race checks each interval
    "written": """
    __shared__ float s[512];
    for (int r = 0; r < 5; r++) {
        int base = r * 3;
        for (int j = 0; j < 6; j++) {
            s[base * 8 + j] = x[j];
            y[threadIdx.x] = s[(base + j) % 512];
        }
        __syncthreads();
    }
    """,
    # a carried value read only under `&&`: no claim may be made
    "logical": """
    __shared__ float s[256];
    int k = 0;
    for (int r = 0; r < 4; r++) {
        k = k + r;
        for (int j = 0; j < 5; j++)
            s[(k && j) + threadIdx.x % 128] = x[j];
        __syncthreads();
    }
    """,
}


def _kernels():
    for name, body in BODIES.items():
        yield name, kernel_of(body), {}
    for kernel in project_kernels():
        yield kernel.name, kernel, {"n": 4096, "len": 1024, "cols": 64, "rows": 8, "h": 40, "w": 40,
                                    "cin": 2, "cout": 8, "width": 64, "height": 8}


KERNELS = list(_kernels())


def _findings(kernel, bindings, block):
    return sync.analyze(kernel, block, bindings, grid=(2, 2, 1)).to_json()


def _differing(monkeypatch, off) -> list:
    found = []
    for block in ((256, 1, 1), (32, 8, 1)):
        for name, kernel, bindings in KERNELS:
            expected = _findings(kernel, bindings, block)
            with monkeypatch.context() as patch:
                off(patch)
                general = _findings(kernel, bindings, block)
            if expected != general:
                found.append((name, block))
    return found


def test_idle_trips_change_no_finding(monkeypatch):
    assert _differing(monkeypatch, lambda patch: patch.setattr(sync, "_idle_candidates", lambda node: None)) == []


def test_idle_trips_happen(monkeypatch):
    answers = []
    real = sync.BlockRun.idle_from_here

    def watched(run, candidates):
        answers.append(real(run, candidates))
        return answers[-1]

    monkeypatch.setattr(sync.BlockRun, "idle_from_here", watched)
    sync.analyze(KERNELS[0][1], (256, 1, 1), {}, grid=(1, 1, 1))
    assert True in answers and False in answers


def test_ignoring_the_interval_is_caught(monkeypatch):
    def careless(run, candidates):
        return all(id(event.record) in run.found.unknown_addresses if event.read_only else
                   fails or event.unbound_address or event.trusted is False
                   for event, fails in candidates)

    # (the fast path on for the broken variant, compared with the general path)
    def broken(patch):
        patch.setattr(sync.BlockRun, "idle_from_here", careless)

    assert _differing(monkeypatch, broken) != []
