"""The sync analysis's vectorised checks against plain per-element references written here."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from kernelscope import symbolic as sx
from kernelscope.analyses import sync
from kernelscope.analyses.threads import thread_space


def two_threads_on_a_word(words, threads) -> bool:
    seen: dict = {}
    for word, thread in zip(words.tolist(), threads.tolist()):
        seen.setdefault(word, set()).add(thread)
    return any(len(touching) > 1 for touching in seen.values())


def meet(words, threads, x, y) -> bool:
    for word in set(words.tolist()):
        rows = words == word
        if (rows & x).any() and (rows & y).any() and len(set(threads[rows & (x | y)].tolist())) > 1:
            return True
    return False


@pytest.mark.parametrize("spread", [8, 64, 1 << 40])     # dense scratch array, and the sorted fallback
def test_two_threads_on_a_word_agrees_with_a_set_per_word(spread):
    rng = np.random.default_rng(spread % 1000)
    outcomes = set()
    for _ in range(200):
        size = int(rng.integers(1, 30))
        words = rng.integers(0, 8, size) * (spread // 8)     # few distinct words, so that they repeat
        threads = rng.integers(0, 4, size)
        expected = two_threads_on_a_word(words, threads)
        assert sync._two_threads_on_a_word(words, threads) == expected
        outcomes.add(expected)
    assert outcomes == {True, False}


@pytest.mark.parametrize("spread", [6, 1 << 40])
def test_meeting_agrees_with_a_scan_per_word(spread):
    rng = np.random.default_rng(7 + spread % 97)
    for _ in range(200):
        size = int(rng.integers(1, 25))
        words = rng.integers(0, 6, size) * (spread // 6)
        threads = rng.integers(0, 3, size)
        x, y = rng.random(size) < 0.5, rng.random(size) < 0.5
        assert sync._meeting(words, threads)(x, y) == meet(words, threads, x, y)


def test_sharing_words_agrees_with_intersecting_each_pair():
    rng = np.random.default_rng(3)
    for _ in range(50):
        firsts = [(None, np.unique(rng.integers(0, 50, int(rng.integers(1, 8))))) for _ in range(int(rng.integers(1, 5)))]
        seconds = [(None, np.unique(rng.integers(0, 50, int(rng.integers(1, 8))))) for _ in range(int(rng.integers(1, 5)))]
        meets = sync._sharing_words(firsts, seconds)
        for (i, (_, a)), (j, (_, b)) in itertools.product(enumerate(firsts), enumerate(seconds)):
            assert meets[i, j] == bool(np.intersect1d(a, b).size)


def mask_problem(masks, active, alive, space):
    """CUDA's rule lane by lane: each caller is in its mask; every lane its mask names that has
    not exited is a caller too."""
    for thread in np.flatnonzero(active):
        warp, lane, mask = int(space.warp[thread]), int(space.lane[thread]), int(masks[thread])
        in_warp = space.warp == warp
        present = {int(k) for k in space.lane[active & in_warp]}
        living = {int(k) for k in space.lane[alive & in_warp]}
        if not (mask >> lane) & 1:
            return ("left out", lane, warp, mask)
        missing = {k for k in range(32) if (mask >> k) & 1} & (living - present)
        if missing:
            return ("absent", warp, mask, sorted(missing), present)
    return None


def test_mask_problem_names_the_first_calling_lane_with_one():
    space = thread_space((80, 1, 1))      # a last warp of 16 lanes
    rng = np.random.default_rng(11)
    for _ in range(300):
        active = rng.random(space.size) < 0.8
        alive = active | (rng.random(space.size) < 0.5)
        masks = np.where(rng.random(space.size) < 0.7, 0xFFFFFFFF, rng.integers(0, 1 << 32, space.size))
        expected = mask_problem(masks, active, alive, space)
        found = sync._mask_problem(masks.astype(np.int64), active, alive, space)
        if expected is None:
            assert found is None
        elif expected[0] == "left out":
            _, lane, warp, mask = expected
            assert found == f"lane {lane} of warp {warp} calls it with mask 0x{mask:08x}, which leaves it out"
        else:
            _, warp, mask, missing, present = expected
            assert found.startswith(f"mask 0x{mask:08x} names lanes ") and f"of warp {warp}," in found
            assert f"(lanes here: 0x{sum(1 << k for k in present):08x})" in found
            named = found.split("names lanes ")[1].split(" of warp")[0]
            listed = []
            for run in named.split(", "):
                low, _, high = run.partition("..")
                listed += list(range(int(low), int(high or low) + 1))
            assert listed == missing


class CountingSym(sx.Sym):
    """A symbol that counts how often an evaluation reads it."""
    __slots__ = ("reads",)

    def __init__(self, name):
        super().__init__(name)
        self.reads = 0

    def _small(self, env):
        self.reads += 1
        return super()._small(env)


def test_the_memo_evaluates_an_expression_once_per_value_of_what_changes():
    space = thread_space((32, 1, 1))
    tid = CountingSym("threadIdx.x")
    expr = sx.binary("+", sx.binary("*", tid, 4), sx.Sym("k"))
    run = sync.BlockRun([], space, dict(space.env), set(), {}, sync.Findings(), memo=sync.Memo(frozenset({"k"})))
    env = dict(space.env)
    first = [run.per_thread(expr, {**env, "k": k}) for k in (0, 1, 2)]
    assert tid.reads == 3
    again = [run.per_thread(expr, {**env, "k": k}) for k in (0, 1, 2)]
    assert tid.reads == 3
    for a, b, k in zip(first, again, (0, 1, 2)):
        assert a is b and np.array_equal(a, space.linear * 4 + k)


def test_an_expression_on_an_unbound_name_is_not_evaluated_again():
    space = thread_space((32, 1, 1))
    tid = CountingSym("threadIdx.x")
    expr = sx.binary("<", tid, sx.Sym("n"))
    run = sync.BlockRun([], space, dict(space.env), set(), {}, sync.Findings(), memo=sync.Memo(frozenset()))
    run.unbound = sync.UnboundFailures()    # (not what earlier tests recorded of expressions built alike)
    assert run.truth(expr, dict(space.env)) is None
    assert run.truth(expr, {**space.env, "k": 5}) is None
    assert tid.reads == 1
    assert np.array_equal(run.truth(expr, {**space.env, "n": 7}), space.linear < 7)
    assert tid.reads == 2


class Access:
    """What the comparison of blocks reads of an access record."""

    def __init__(self, op, line, column, seq, stored=None):
        self.op, self.line, self.column, self.seq, self.stored = op, line, column, seq, stored
        self.array = "g"


def block_pair_races(footprints, blocks, pairs_cap):
    """Every pair of accesses of two blocks compared one by one, in order, up to the cap."""
    found: dict = {}
    checked = 0
    for x in range(len(footprints)):
        for y in range(x + 1, len(footprints)):
            for key in [k for k in footprints[x] if k in footprints[y]]:
                for first, first_words in footprints[x][key]:
                    for second, second_words in footprints[y][key]:
                        if {first.op, second.op} == {"load"} or {first.op, second.op} == {"atomic"}:
                            continue
                        if first is second and sync._stores_uniform_value(first, across_blocks=True):
                            continue
                        checked += 1
                        if checked > pairs_cap:
                            return found
                        if not set(first_words.tolist()) & set(second_words.tolist()):
                            continue
                        race = sync._between_blocks(first, second, blocks[x], blocks[y])
                        found.setdefault((race.array, race.first_line, race.second_line), race)
    return found


@pytest.mark.parametrize("pairs_cap", [3, 40, 4096])
def test_block_pair_races_agree_with_comparing_pair_by_pair(pairs_cap):
    rng = np.random.default_rng(pairs_cap)
    # two accesses on one line (different columns) name the same race: the first pair compared wins
    accesses = [Access("store", 3, 5, 0), Access("load", 3, 9, 1), Access("store", 4, 2, 2, sx.const(1.0)),
                Access("atomic", 5, 1, 3), Access("atomic", 6, 1, 4), Access("load", 7, 3, 5)]
    blocks = [(0, 0, 0), (1, 0, 0), (2, 0, 0)]
    outcomes = set()
    for _ in range(60):
        footprints = []
        for _ in blocks:
            footprint = {}
            for interval in range(2):
                executed = rng.choice(len(accesses), size=int(rng.integers(1, 9)))
                footprint[(interval, "g")] = [(accesses[k], np.unique(rng.integers(0, 12, int(rng.integers(1, 4)))))
                                              for k in executed]
            footprints.append(footprint)
        expected = block_pair_races(footprints, blocks, pairs_cap)
        found = sync._block_pair_races(footprints, blocks, pairs_cap)
        assert {(r.array, r.first_line, r.second_line): r for r in found} == expected
        outcomes.add(len(expected))
    assert len(outcomes) > 2


def test_distinct_words_are_the_unique_words():
    rng = np.random.default_rng(5)
    for size in (0, 1, 2, 7, 64):
        for words in (np.arange(size) * 3, rng.integers(0, 5, size), np.sort(rng.integers(0, 99, size))):
            assert np.array_equal(sync._distinct(words), np.unique(words))


def _spread_footprints(rng, accesses, blocks):
    """Footprints whose accesses keep to short ranges of words at random offsets, so that the
    ranges of two blocks' accesses are often apart, sometimes overlap and sometimes only touch."""
    footprints = []
    for _ in blocks:
        footprint = {}
        for interval in range(2):
            executed = rng.choice(len(accesses), size=int(rng.integers(1, 7)))
            entries = []
            for k in executed:
                low = int(rng.integers(0, 6)) * 4
                words = np.unique(np.concatenate([[low, low + 4], low + rng.integers(0, 5, 2)]))
                entries.append((accesses[k], words))
            footprint[(interval, "g")] = entries
        footprints.append(footprint)
    return footprints


def _block_pairs_agree(seed: int) -> set:
    rng = np.random.default_rng(seed)
    accesses = [Access("store", 3, 5, 0), Access("load", 3, 9, 1), Access("store", 4, 2, 2),
                Access("atomic", 5, 1, 3), Access("load", 7, 3, 5)]
    blocks = [(0, 0, 0), (1, 0, 0), (2, 0, 0)]
    outcomes = set()
    for _ in range(80):
        footprints = _spread_footprints(rng, accesses, blocks)
        expected = block_pair_races(footprints, blocks, 4096)
        found = sync._block_pair_races(footprints, blocks)
        assert {(r.array, r.first_line, r.second_line): r for r in found} == expected
        outcomes.add(len(expected))
    return outcomes


def test_block_pairs_apart_in_words_are_left_out_exactly():
    # (only the pairs whose ranges of words overlap are intersected)
    assert len(_block_pairs_agree(17)) > 2


def test_ranges_that_only_touch_still_meet(monkeypatch):
    monkeypatch.setattr(sync, "_spans_meet", lambda low_x, high_x, low_y, high_y:
                        (low_x[:, None] < high_y[None, :]) & (low_y[None, :] < high_x[:, None]))
    with pytest.raises(AssertionError):
        _block_pairs_agree(17)


def _sorted_words_agree(seed: int) -> set:
    """`_two_threads_on_a_word` on sorted words (its shortcut: words that rise strictly are each
    touched once) against a set per word."""
    rng = np.random.default_rng(seed)
    outcomes = set()
    for _ in range(200):
        size = int(rng.integers(2, 12))
        words = np.sort(rng.integers(0, 3 * size, size))
        if rng.random() < 0.3:
            words = np.unique(words)
        threads = rng.integers(0, 3, words.size)
        expected = two_threads_on_a_word(words, threads)
        assert sync._two_threads_on_a_word(words, threads) == expected
        outcomes.add((expected, bool(sync._rising(words))))
    return outcomes


def test_words_that_rise_are_touched_by_one_thread_each():
    assert {(False, True), (True, False), (False, False)} <= _sorted_words_agree(9)


def test_words_that_only_do_not_fall_are_not_taken_for_rising(monkeypatch):
    monkeypatch.setattr(sync, "_rising", lambda words: not np.count_nonzero(words[1:] < words[:-1]))
    with pytest.raises(AssertionError):
        _sorted_words_agree(9)
