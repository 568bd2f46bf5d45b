"""The numpy shortcuts of the sync executor give what the numpy calls they replace give."""

import numpy as np
import pytest

from kernelscope.analyses import sync
from kernelscope.analyses.threads import one_per_thread


@pytest.mark.parametrize("value", [3, -7, True, False, 2.5, np.int64(5), np.float32(1.5), np.uint32(7),
                                   np.asarray(9), np.int32(-1)])
def test_scalar_broadcast_is_broadcast_to(value):
    general = np.broadcast_to(np.asarray(value), (40,))
    got = one_per_thread(value, 40)
    assert got.shape == general.shape and got.dtype == general.dtype
    assert got.strides == general.strides == (0,)     # `_Footprint.touching` tells broadcasts by it
    assert not got.flags.writeable
    assert np.array_equal(got, general)


def test_read_only_scalar_array_broadcasts():
    value = np.asarray(np.int64(4))
    value.flags.writeable = False
    assert np.array_equal(one_per_thread(value, 8), np.full(8, 4))


@pytest.mark.parametrize("value", ["text", None, [1, 2], np.zeros(3), np.asarray(object())])
def test_other_values_as_before(value):
    try:
        general = np.broadcast_to(np.asarray(value), (5,))
        general = None if general.dtype == object else general
    except (ValueError, TypeError):
        general = None
    got = one_per_thread(value, 5)
    assert (got is None) == (general is None)
    if got is not None:
        assert np.array_equal(got, general)


def test_one_value_per_thread_is_passed_on():
    values = np.arange(6)
    assert one_per_thread(values, 6) is values


@pytest.mark.parametrize("a, b", [
    (np.arange(4), np.arange(4)), (np.arange(4), np.arange(1, 5)), (np.arange(4), np.arange(3)),
    (np.zeros((2, 3), dtype=bool), np.zeros((2, 3), dtype=bool)), (np.zeros((2, 3)), np.zeros((3, 2))),
    (np.arange(0), np.arange(0)), (np.arange(4), np.arange(4.0)),
])
def test_equal_is_array_equal(a, b):
    assert sync._equal(a, b) is np.array_equal(a, b)


@pytest.mark.parametrize("mask", [np.array([True, False, True, True]), np.zeros(5, dtype=bool),
                                  np.ones(3, dtype=bool)])
def test_nonzero_is_flatnonzero(mask):
    assert np.array_equal(mask.nonzero()[0], np.flatnonzero(mask))
    grid = np.stack([mask, ~mask])
    assert np.array_equal(grid.ravel().nonzero()[0], np.flatnonzero(grid))


# -- setup shortcuts of sync.analyze, against the general computation they stand for ------------------

def _corpus_kernels():
    from pathlib import Path

    from kernelscope.frontend import parse_file

    root = Path(__file__).resolve().parents[1]
    for path in sorted((root / "corpus").rglob("*.cu"))[:60] + sorted((root / "tests/kernels/sync").glob("*.cu")):
        yield from parse_file(path.read_text(), str(path)).kernels


def _loop_nodes(nodes):
    for node in nodes:
        if isinstance(node, sync.LoopNode):
            yield node
            yield from _loop_nodes(node.children)


def test_loop_tree_marks_the_loops_as_marking_everything_does():
    """loop_tree leaves the events outside every loop out of `_mark_carried`: each loop's carried
    names are what marking the whole root gives."""
    checked = 0
    for kernel in _corpus_kernels():
        tree = sync.loop_tree(sync.program_order(kernel))
        general = sync._nest(sync.program_order(kernel))
        sync._mark_carried(general)
        ours, theirs = list(_loop_nodes(tree)), list(_loop_nodes(general))
        assert [n.carried for n in ours] == [n.carried for n in theirs]
        checked += len(ours)
    assert checked > 50


def test_block_axes_read_as_reading_every_expression():
    import kernelscope.symbolic as sx

    for kernel in _corpus_kernels():
        expressions = [b.condition for b in kernel.branches] + [b.condition for b in kernel.early_returns]
        expressions += [e for loop in kernel.loops for e in (loop.start, loop.bound, loop.step) if e is not None]
        expressions += [a.address for a in kernel.accesses if a.space in ("shared", "global")]
        for record in list(kernel.accesses) + list(kernel.barriers) + list(kernel.calls):
            expressions += [c.expr for c in record.context.conditions]
        names: set = set()
        for expr in expressions:
            if expr is not None:
                names |= sx.free_names(expr)
        assert sync._block_axes_read(kernel) == {name[-1] for name in names if name.startswith("blockIdx.")}
