"""`loop_tree` marks its loops in one pass (`_mark_loop`): the marks are those `_mark_carried` and
`_mark_quiet`, the passes it replaced, give, on every kernel of the project's CUDA files and on
made-up trees whose loops and events take every combination the marks tell apart."""

import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file

ROOT = Path(__file__).resolve().parents[1]
MARKS = ("carried", "quiet", "batchable", "nest_batchable", "plain_steps")


def _loop_nodes(nodes):
    for node in nodes:
        if type(node) is sync.LoopNode:
            yield node
            yield from _loop_nodes(node.children)


def _marks(tree) -> list:
    return [tuple(getattr(node, mark) for mark in MARKS) for node in _loop_nodes(tree)]


def _reference(tree) -> list:
    """The marks as the two separate passes made them (each loop at the root marked alone, as
    `loop_tree` did)."""
    by_conditions: dict = {}
    for node in tree:
        if type(node) is sync.LoopNode:
            sync._mark_carried([node], by_conditions)
    sync._mark_quiet(tree)
    return _marks(tree)


def _cuda_files():
    return sorted(p for folder in ("examples", "tests", "corpus") for p in (ROOT / folder).rglob("*.cu"))


def test_marks_of_every_kernel():
    loops = kinds = 0
    seen = set()
    for path in _cuda_files():
        for kernel in parse_file(path.read_text(), str(path)).kernels:
            ours = _marks(sync.loop_tree(sync.program_order(kernel)))
            assert ours == _reference(sync._nest(sync.program_order(kernel))), (path, kernel.name)
            loops += len(ours)
            seen.update((q, b, n) for _, q, b, n, _ in ours)
    assert loops > 400
    # quiet, batchable and nest-batchable loops, and loops that are none of them, are all among them
    assert {(True, False, False), (False, True, False), (False, False, True), (False, False, False)} <= seen


def _event(rng):
    kind = rng.choice(("access", "barrier", "call", "return"))
    flags = [rng.random() < 0.5 for _ in range(4)]
    return SimpleNamespace(kind=kind, record=SimpleNamespace(address=None, mask=None, args=(), condition=None),
                           conditions=(), condition_key=(), inert=flags[0], plain_access=flags[1],
                           block_barrier=flags[2], warp_call=flags[3])


def _made_up(rng, depth: int, outer_var) -> list:
    nodes = []
    for _ in range(rng.randint(0, 4)):
        if depth < 3 and rng.random() < 0.4:
            var = rng.choice((None, "i", "j", "k", outer_var))
            nodes.append(sync.LoopNode(SimpleNamespace(var=var), _made_up(rng, depth + 1, var)))
        else:
            nodes.append(_event(rng))
    return nodes


@pytest.mark.parametrize("barrier_free", [True, False])
def test_marks_of_made_up_trees(monkeypatch, barrier_free):
    monkeypatch.setattr(sync, "BARRIER_FREE_NESTS", barrier_free)
    rng = random.Random(18)
    nests = 0
    for _ in range(3000):
        seed = rng.random()
        ours = _made_up(random.Random(seed), 0, "i")
        theirs = _made_up(random.Random(seed), 0, "i")
        for node in ours:
            if type(node) is sync.LoopNode:
                sync._mark_loop(node, {})
        assert _marks(ours) == _reference(theirs)
        nests += sum(node.nest_batchable for node in _loop_nodes(ours))
    assert nests > 20
