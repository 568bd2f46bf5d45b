"""The redundant-barrier check (`_hazard_across`) compares, for words within a dense span, one
remembered thread per word of one side against the other side's rows (`_owners_meet`), and no
longer asks first whether two threads share a word at all. These compare it with the general
row-selection path (`HAZARD_OWNERS` off) and with brute force on random intervals, and the
findings on the project's kernels with the switch on and off."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file

ROOT = Path(__file__).resolve().parents[1]
THREADS = 64
SPACE = sync._thread_space((THREADS, 1, 1))


def _instance(rng, array: str, op: str, elem_bytes: int, spread: int):
    access = SimpleNamespace(array=array, op=op, elem_bytes=elem_bytes, space="shared")
    shape = rng.integers(0, 4)
    if shape == 0:      # one address for every thread (a broadcast)
        addresses = np.full(THREADS, int(rng.integers(0, spread)) * elem_bytes, dtype=np.int64)
    elif shape == 1:    # each thread its own slot, shifted
        addresses = ((np.arange(THREADS) + int(rng.integers(0, 8))) % spread) * elem_bytes
    else:
        addresses = rng.integers(0, spread, THREADS) * elem_bytes
    mask = rng.random(THREADS) < rng.choice([0.1, 0.6, 1.0])
    if rng.random() < 0.3:
        mask[:] = True
    epochs = np.zeros(THREADS, dtype=np.int64)
    return sync.Instance(access, addresses.astype(np.int64), mask, epochs)


def _interval(rng, count: int, spread: int) -> list:
    ops = ["load", "store", "atomic"]
    return [_instance(rng, "ab"[int(rng.integers(0, 2))], ops[int(rng.integers(0, 3))],
                      int(rng.choice([4, 4, 8])), spread) for _ in range(count)]


def _brute_hazard(before: list, after: list) -> bool:
    """Some word of one array touched by a conflicting pair (a store against anything, an atomic
    against a load) across the barrier, with two different threads among those two accesses' rows
    on it, as per-instance sets."""
    def touches(instance, granule):
        pieces = max(1, instance.access.elem_bytes // granule)
        found: dict = {}
        for thread in np.nonzero(instance.mask)[0].tolist():
            first = int(instance.addresses[thread]) // granule
            for piece in range(pieces):
                found.setdefault(first + piece, set()).add(thread)
        return found

    for array in {i.access.array for i in before} & {i.access.array for i in after}:
        firsts = [i for i in before if i.access.array == array]
        seconds = [i for i in after if i.access.array == array]
        granule = min([4] + [i.access.elem_bytes for i in firsts + seconds])

        def conflicting(x_op, y_op, xs, ys):
            chosen_x = [i for i in xs if x_op(i.access.op)]
            chosen_y = [i for i in ys if y_op(i.access.op)]
            if not chosen_x or not chosen_y:
                return False
            words_x: dict = {}
            for i in chosen_x:
                for word, threads in touches(i, granule).items():
                    words_x.setdefault(word, set()).update(threads)
            words_y: dict = {}
            for i in chosen_y:
                for word, threads in touches(i, granule).items():
                    words_y.setdefault(word, set()).update(threads)
            return any(len(words_x[w] | words_y[w]) > 1 for w in words_x.keys() & words_y.keys())

        def store(op):
            return op == "store"

        def atomic(op):
            return op == "atomic"

        def load(op):
            return op == "load"

        def anything(op):
            return True

        if conflicting(store, anything, firsts, seconds) or conflicting(store, anything, seconds, firsts) or \
                conflicting(atomic, load, firsts, seconds) or conflicting(load, atomic, firsts, seconds):
            return True
    return False


@pytest.mark.parametrize("seed", range(200))
def test_hazard_matches_brute_force_and_the_row_path(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    spread = int(rng.choice([1, 4, 64, 1 << 20]))     # (the widest is sorted, not dense)
    before = _interval(rng, int(rng.integers(1, 5)), spread)
    after = _interval(rng, int(rng.integers(1, 5)), spread)
    expected = _brute_hazard(before, after)
    assert sync._hazard_across(before, after, SPACE) == expected
    monkeypatch.setattr(sync, "HAZARD_OWNERS", False)
    assert sync._hazard_across(before, after, SPACE) == expected


@pytest.mark.parametrize("seed", range(200))
def test_owners_meet_matches_brute_force(seed):
    rng = np.random.default_rng(1000 + seed)
    span = int(rng.integers(1, 40))
    slots_x = rng.integers(0, span, int(rng.integers(0, 12)))
    threads_x = rng.integers(0, 4, slots_x.size)
    slots_y = rng.integers(0, span, int(rng.integers(0, 12)))
    threads_y = rng.integers(0, 4, slots_y.size)
    expected = any(len({t for s, t in zip(slots_x, threads_x) if s == w} | {t for s, t in zip(slots_y, threads_y)
                                                                            if s == w}) > 1
                   for w in set(slots_x.tolist()) & set(slots_y.tolist()))
    assert sync._owners_meet(slots_x, threads_x, slots_y, threads_y, span) == expected


FILES = sorted(str(p.relative_to(ROOT)) for pattern in ("examples/*.cu", "tests/kernels/races/*.cu",
                                                         "tests/kernels/sync/*.cu", "corpus/*/*.cu")
               for p in ROOT.glob(pattern))


def _needed_barriers() -> list:
    found = []
    for path in FILES:
        for kernel in parse_file((ROOT / path).read_text(), path).kernels:
            result = sync.analyze(kernel, (256, 1, 1), {})
            found.append((path, kernel.name, result.to_json()))
    return found


def test_findings_on_the_kernels_are_the_same_with_the_row_path(monkeypatch):
    fast = _needed_barriers()
    assert sum(len(json["redundant_barriers"]) for _, _, json in fast) > 0
    monkeypatch.setattr(sync, "HAZARD_OWNERS", False)
    assert _needed_barriers() == fast
