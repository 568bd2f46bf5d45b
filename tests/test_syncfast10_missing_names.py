"""`BlockRun.evaluate` finds the names an expression lacks as the frozenset difference of its symbols
with the environment (a look-up of each symbol) instead of `frozenset(symbols - env.keys())`
(a pass over every name of the environment). These compare the two on random expressions and
environments, plain dicts and the skim's `_Writes` copies, and check that what `evaluate` records
and answers is what the former expression gives."""

from __future__ import annotations

import random

import numpy as np

from kernelscope import symbolic as sx
from kernelscope.analyses import sync

NAMES = ["n", "w", "k", "threadIdx.x", "blockIdx.x", "m"]


def _expression(rng: random.Random):
    leaves = [sx.Sym(name) for name in rng.sample(NAMES, rng.randint(1, 4))]
    if rng.random() < 0.3:
        leaves.append(sx.Sym("j", default=sx.Sym(rng.choice(NAMES))))
    expr = leaves[0]
    for leaf in leaves[1:]:
        expr = sx.binary(rng.choice(["+", "*", "-"]), expr, leaf)
    return expr


def _environment(rng: random.Random, writes: bool) -> dict:
    env = {name: rng.randint(1, 9) for name in NAMES if rng.random() < 0.5}
    env.update({f"other{k}": k for k in range(rng.randint(0, 30))})      # names the expressions never read
    if writes:
        copy = sync._Writes(env)
        copy["late"] = 1
        return copy
    return env


def test_the_difference_is_the_former_set():
    rng = random.Random(10)
    seen = set()
    for _ in range(2000):
        expr = _expression(rng)
        env = _environment(rng, rng.random() < 0.3)
        missing = expr.symbols().difference(env)
        former = frozenset(expr.symbols() - env.keys())
        assert type(missing) is frozenset and missing == former and hash(missing) == hash(former)
        seen.add(bool(missing))
    assert seen == {True, False}


class _Run:
    """What `BlockRun.evaluate` reads of its run."""

    def __init__(self):
        self.unbound, self.hopeless = sync.UnboundFailures(), {}
        self.memo = sync.Memo(frozenset({"k"}))
        self.space = sync._thread_space((64, 1, 1))

    evaluate = sync.BlockRun.evaluate
    unbound_for_good = sync.BlockRun.unbound_for_good


def test_evaluate_records_and_answers_as_before():
    rng = random.Random(11)
    run = _Run()
    answered = {"none": 0, "value": 0}
    kept = []       # (alive, so that no other expression takes an identity `hopeless` knows)
    for _ in range(600):
        expr = _expression(rng)
        kept.append(expr)
        env = {**run.space.env, **_environment(rng, rng.random() < 0.3)}
        value = run.evaluate(expr, env)
        former = frozenset(expr.symbols() - env.keys())
        try:
            expected = sx.evaluate(expr, env)
        except sx.Unbound:
            expected = None
            assert former in run.unbound[expr._key]
            if former.isdisjoint({"k"}):     # (no loop binds what it lacks: it fails for good)
                assert run.hopeless.get(id(expr)) is expr
        if expected is None:
            assert value is None
            answered["none"] += 1
        else:
            assert np.array_equal(value, np.broadcast_to(expected, (64,)))
            answered["value"] += 1
    assert answered["none"] and answered["value"]
