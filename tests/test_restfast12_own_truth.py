"""restfast12: a guard over several unbound scalars whose verdict on the stand-ins is already on its
node takes its truth from the environment's kept truths (Lanes._truth) instead of comparing the
values with 0 again; compared here with condition_values / condition_mask on copies of the nodes
judged in the same order, for every loop value and for a second kernel of the same environment."""
import numpy as np
import pytest

from kernelscope import symbolic as sx
from kernelscope.analyses import threads

from test_threads import _guard, _lanes


def _decided():        # stand-ins decide it: n - m + 1 is 1 with one stand-in (thread 0 fails), not with two
    return sx.binary(">=", sx.binary("*", sx.Sym("threadIdx.x"), sx.Sym("s")),
                     sx.binary("+", sx.binary("-", sx.Sym("n"), sx.Sym("m")), sx.Const(1)))


def _undecided():      # true for every spread of n and m, but its truth still varies with s
    tid, s = sx.Sym("threadIdx.x"), sx.Sym("s")
    return sx.binary("&&", sx.binary("==", sx.binary("%", tid, sx.binary("*", s, 2)), 0),
                     sx.binary("<", tid, sx.binary("+", sx.Sym("n"), sx.Sym("m"))))


@pytest.mark.parametrize("make", [_decided, _undecided])
def test_guards_judged_again_for_each_loop_value_agree_with_the_general_path(make, monkeypatch):
    block = threads.BlockShape(64)
    reached = []
    original = threads.Lanes._truth
    monkeypatch.setattr(threads.Lanes, "_truth", lambda self, expr: reached.append(1) or original(self, expr))
    verdicts = set()
    for kernel in range(2):          # each kernel: its own Lanes and its own nodes, one environment
        lanes = _lanes(block, {})
        kept_copy, plain_copy = make(), make()
        for value in (1, 2, 4, 8, 16):
            env = {**lanes.env, "s": value}
            got = lanes.mask_in([_guard(kept_copy)], env, {"s": value})
            want = threads.condition_mask([_guard(plain_copy)], env, block.slots)
            assert np.array_equal(got, want), (kernel, value)
        assert getattr(kept_copy, "_decided_by_stand_ins", None) == getattr(plain_copy, "_decided_by_stand_ins")
        verdicts.add(kept_copy._decided_by_stand_ins[1])
    assert verdicts == {make is _decided}
    assert reached or make is _decided      # the kept truth was asked for (not for a decided guard)

