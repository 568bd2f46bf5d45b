"""restfast12: the Lanes of a loop value (Lanes._lanes_within) serve every kernel of an equal
environment (threads.SHARE_WITHIN_LANES), each kernel keeping its own truths of guards the stand-ins
may decide. Compared with the general path (condition_mask, the guards judged in the same order) and
with a Lanes per kernel, over kernels that meet environments in different orders. Nodes are shared by
structure (sx.binary), so a guard's verdict on the stand-ins changes as environments come and go."""
import numpy as np
import pytest

from kernelscope import symbolic as sx
from kernelscope.analyses import threads

from test_threads import _guard, _lanes


# the bindings of the kernels in the order they are analysed (nodes are shared by structure, so
# `tid * s >= n - m + k` is one node throughout): with k=1 the stand-ins decide it; with k unbound its
# verdict is judged again over (k, m, n); with k=-2**22 again over (m, n), undecided; back at k=1 that
# verdict stands, and the guard's truth is no longer the one the first kernel at k=1 kept
ORDER = [{"k": 1}, {}, {"k": -2**22}, {"k": 1}, {"k": 1}, {}, {"k": 1}]


def _run(share: bool, monkeypatch):
    monkeypatch.setattr(threads, "SHARE_WITHIN_LANES", share)
    threads._KEPT.clear()
    threads._DROPS[0] += 1
    block = threads.BlockShape(64)
    masks = []
    for kernel, bindings in enumerate(ORDER):
        lanes = _lanes(block, bindings)
        kept_guards, plain_guards = _guards(None), _guards(None)
        for value in (1, 2, 4, 8):
            env = {**lanes.env, "s": value}
            for count in (1, 2, 3):
                got = lanes.mask_in(kept_guards[:count], env, {"s": value})
                want = threads.condition_mask(plain_guards[:count], env, block.slots)
                assert np.array_equal(got, want), (share, kernel, value, count)
                masks.append(got)
        for kept, plain in zip(kept_guards, plain_guards):
            assert getattr(kept.expr, "_decided_by_stand_ins", None) == getattr(plain.expr, "_decided_by_stand_ins", None)
    return masks


def _guards(_):          # (each kernel builds its guards; sx.binary hands out the same nodes)
    tid, s, k = sx.Sym("threadIdx.x"), sx.Sym("s"), sx.Sym("k")
    n, m = sx.Sym("n"), sx.Sym("m")
    decided = sx.binary(">=", sx.binary("*", tid, s), sx.binary("+", sx.binary("-", n, m), k))
    undecided = sx.binary("&&", sx.binary("==", sx.binary("%", tid, sx.binary("*", s, 2)), 0),
                          sx.binary("<", tid, sx.binary("+", n, m)))
    one_unbound = sx.binary("<", sx.binary("*", tid, s), sx.binary("+", n, k))
    return [_guard(decided), _guard(undecided, True), _guard(one_unbound)]


def test_shared_lanes_of_a_loop_value_agree_with_the_general_path_and_a_lanes_per_kernel(monkeypatch):
    shared = _run(True, monkeypatch)
    own = _run(False, monkeypatch)
    assert len(shared) == len(own) and all(np.array_equal(a, b) for a, b in zip(shared, own))


def test_kernels_of_one_environment_share_the_lanes_of_a_loop_value(monkeypatch):
    block = threads.BlockShape(64)
    first, second = _lanes(block, {"k": 7}), _lanes(block, {"k": 7})
    env = {**first.env, "s": 2}
    assert first._lanes_within(env, {"s": 2}) is second._lanes_within({**second.env, "s": 2}, {"s": 2})
    other = _lanes(block, {"k": 8})                  # another environment: its own
    assert other._lanes_within({**other.env, "s": 2}, {"s": 2}) is not first._lanes_within(env, {"s": 2})
