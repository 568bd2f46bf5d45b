"""syncloop23: a loop with barriers whose trips all record the same instances (`_repeat_plan`: nothing
but plain loads, stores, block barriers and loops of them, one barrier under no condition, and no
written array's address or condition, no barrier's condition and no inner loop's bounds read its
counter or what it carries) is walked for its first trip only (`BlockRun.repeats_from_here`,
`replay_trips`): the interval across the back edge (a trip's tail and the next trip's head) is closed
from what the first trip kept (`_TripCapture`), with the barrier checks before and after it; the other
trips' steps are counted and the footprints kept for comparing blocks copied.
- The findings (races, barriers, notes, trip counts, global races between blocks) and the footprints
  kept for comparing blocks of every project kernel and of kernels built for it equal those with the
  repeat off, bounds known and unknown, with and without a grid; the path is taken on many of them.
- Variants that drop one of its rules are caught: a written array's address that reads the counter
  (a race in one trip only), a read-only load whose address fails to evaluate in a later trip only
  (its note), the footprints not copied, steps alone (a race across the back edge, a barrier needed
  only between one trip's tail and the next one's middle), the check after the back edge (for a trip
  of two closes; for one close, the check after the loop compares the same but in word sizes). (Trips
  that would pass the step cap are left to the walk, which cuts the trace where it always did.)
"""

from __future__ import annotations

import pytest

from kernelscope.analyses import sync
from kernel_bodies import kernel_of
from project_sources import project_kernels

BODIES = {
    # the tiled shape: every trip stores the same shared words, loads global ones the counter moves
    "tiled": """
    __shared__ float s[256];
    float acc = 0.0f;
    for (int t = 0; t < n; t += 256) {
        s[threadIdx.x] = x[t + threadIdx.x];
        __syncthreads();
        for (int k = 0; k < 16; k++)
            acc += s[(threadIdx.x + k) % 256];
        __syncthreads();
    }
    y[threadIdx.x] = acc;
    """,
    # a race in the third trip only: all threads store to s[0] when t == 2
    "late_race": """
    __shared__ float s[256];
    float acc = 0.0f;
    for (int t = 0; t < 5; t++) {
        s[threadIdx.x * (t == 2 ? 0 : 1)] = x[threadIdx.x];
        __syncthreads();
        acc += s[255 - threadIdx.x];
        __syncthreads();
    }
    y[threadIdx.x] = acc;
    """,
    # a read-only load whose address cannot be evaluated in the third trip only (division by zero)
    "late_unknown": """
    __shared__ float s[256];
    float acc = 0.0f;
    for (int t = 0; t < 5; t++) {
        s[threadIdx.x] = x[threadIdx.x + 64 / (2 - t)];
        __syncthreads();
        acc += s[255 - threadIdx.x];
        __syncthreads();
    }
    y[threadIdx.x] = acc;
    """,
    # a global store each trip at the same words, kept for comparing blocks
    "global_each_trip": """
    __shared__ float s[256];
    for (int t = 0; t < 6; t++) {
        s[threadIdx.x] = x[t * 256 + threadIdx.x];
        __syncthreads();
        y[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
        y[blockIdx.x * 256 + 300] = s[0];
        __syncthreads();
    }
    """,
    # a race across the back edge only: a trip's tail stores what the next trip's head loads
    "back_edge_race": """
    __shared__ float s[256];
    for (int t = 0; t < 4; t++) {
        y[threadIdx.x] = s[255 - threadIdx.x];
        __syncthreads();
        s[threadIdx.x] = x[threadIdx.x];
    }
    """,
    # the first barrier is needed only between a trip's tail (r stored) and the next trip's middle
    "two_barriers": """
    __shared__ float s[256];
    __shared__ float r[256];
    float acc = 0.0f;
    for (int t = 0; t < 4; t++) {
        s[threadIdx.x] = x[threadIdx.x];
        __syncthreads();
        acc += s[threadIdx.x] + r[(threadIdx.x + 1) % 256];
        __syncthreads();
        r[threadIdx.x] = 1.0f;
    }
    y[threadIdx.x] = acc;
    """,
    # one barrier a trip, needed only between one trip's interval and the next's (a race in each)
    "one_barrier": """
    __shared__ float s[256];
    for (int t = 0; t < 4; t++) {
        __syncthreads();
        s[threadIdx.x] = x[threadIdx.x];
        y[threadIdx.x] = s[threadIdx.x ^ 1];
    }
    """,
    # a repeated loop in a repeated loop: the inner one's closes are among the outer one's first trip's
    "nested": """
    __shared__ float s[256];
    float acc = 0.0f;
    for (int a = 0; a < 3; a++) {
        y[threadIdx.x] = s[(threadIdx.x + 3) % 256];
        __syncthreads();
        for (int b = 0; b < 4; b++) {
            s[threadIdx.x] = x[threadIdx.x + b];
            __syncthreads();
            acc += s[(threadIdx.x + 1) % 256];
            __syncthreads();
        }
        s[(threadIdx.x + 7) % 256] = 2.0f;
    }
    y[threadIdx.x] = acc;
    """,
    # a long loop: its trips would pass the step cap, where the trace is cut mid-loop, before the race after it
    "long": """
    __shared__ float s[256];
    float acc = 0.0f;
    for (int t = 0; t < 64; t++) {
        s[threadIdx.x] = x[t * 256 + threadIdx.x];
        __syncthreads();
        for (int k = 0; k < 64; k++)
            acc += s[(threadIdx.x + k) % 256] + s[(threadIdx.x + k + 1) % 256] + s[(threadIdx.x + k + 2) % 256] +
                   s[(threadIdx.x + k + 3) % 256] + s[(threadIdx.x + k + 4) % 256] + s[(threadIdx.x + k + 5) % 256];
        __syncthreads();
    }
    y[0] = acc;     // (a race the cut trace never reaches)
    """,
}

BINDINGS = {"n": 4096, "len": 1024, "cols": 64, "rows": 8, "h": 40, "w": 40, "cin": 2, "cout": 8, "width": 64,
            "height": 8, "k": 64, "m": 64, "fin": 64, "fout": 64, "batch": 64}


def body_and_project_kernels(bodies: dict) -> list:
    """(name, kernel) of each of `bodies` (in their order), then of every project kernel."""
    return [(name, kernel_of(body)) for name, body in bodies.items()] + \
        [(kernel.name, kernel) for kernel in project_kernels()]


KERNELS = body_and_project_kernels(BODIES)
LAUNCHES = (({}, None, False), (BINDINGS, (2, 2, 1), False), ({}, None, True))


def _findings(kernel, bindings, grid, assumed, block=(256, 1, 1)):
    """The analysis' result and the footprints it kept for comparing blocks, comparable."""
    kept = []
    real = sync._block_pair_races

    def keeping(footprints, blocks, *args):
        kept.extend(sorted((key, [(access.line, access.column, words.tolist()) for access, words in entries])
                           for key, entries in block.items()) for block in footprints)
        return real(footprints, blocks, *args)

    sync._block_pair_races = keeping
    try:
        result = sync.analyze(kernel, block, bindings, grid=grid, block_assumed=assumed).to_json()
    finally:
        sync._block_pair_races = real
    return result, kept


def _differing(monkeypatch, change, kernels=KERNELS) -> list:
    """(kernel, launch) whose findings differ between the path as it is and with `change` applied."""
    found = []
    for name, kernel in kernels:
        for launch in LAUNCHES:
            expected = _findings(kernel, *launch)
            with monkeypatch.context() as patch:
                change(patch)
                other = _findings(kernel, *launch)
            if expected != other:
                found.append((name, launch))
    return found


def _repeat_off(patch):
    patch.setattr(sync, "REPEAT_TRIPS", False)


def test_repeated_trips_change_no_finding(monkeypatch):
    assert _differing(monkeypatch, _repeat_off) == []


def test_repeated_trips_happen(monkeypatch):
    replayed = []
    real = sync.BlockRun.replay_trips

    def counting(run, count, first):
        replayed.append(count)
        return real(run, count, first)

    monkeypatch.setattr(sync.BlockRun, "replay_trips", counting)
    for name, kernel in KERNELS:
        if name in ("tiled", "global_each_trip"):
            for launch in LAUNCHES:
                _findings(kernel, *launch)
    assert len(replayed) >= 6
    replayed.clear()
    _findings(dict(KERNELS)["nested"], *LAUNCHES[0])
    assert sorted(replayed) == [2, 3]    # (the inner loop in the outer one's first trip, then the outer one)
    replayed.clear()
    for _, kernel in KERNELS[len(BODIES):]:
        _findings(kernel, *LAUNCHES[0])
    assert len(replayed) >= 10     # (the project's tiled kernels take it)


def _named(*names):
    return [(name, kernel) for name, kernel in KERNELS[:len(BODIES)] if name in names]


def test_a_plan_blind_to_the_counter_is_caught(monkeypatch):
    # the counter is read by a shared store's address: no plan (sync26: with REPEAT_UNKNOWN_WRITES, a plan
    # that watches the store, whose addresses differ from trip to trip: `BlockRun.trips_alike` refuses it)
    kernel = dict(KERNELS)["late_race"]
    node = next(node for node in sync.loop_tree(sync.program_order(kernel)) if type(node) is sync.LoopNode)
    monkeypatch.setattr(sync, "REPEAT_UNKNOWN_WRITES", False)
    assert sync._repeat_plan(node) is None
    monkeypatch.setattr(sync, "REPEAT_UNKNOWN_WRITES", True)
    assert [segment for _, _, segment in sync._repeat_plan(node)] == [0]

    def blind(patch):
        real = sync._repeat_plan

        def plan(loop_node):
            saved = loop_node.loop.var
            try:
                loop_node.loop.var = "_nothing_reads_this"
                return real(loop_node)
            finally:
                loop_node.loop.var = saved

        patch.setattr(sync, "_repeat_plan", plan)

    assert ("late_race", LAUNCHES[0]) in _differing(monkeypatch, blind, _named("late_race"))


def test_ignoring_read_only_loads_is_caught(monkeypatch):
    def careless(patch):
        patch.setattr(sync.BlockRun, "repeat_plan", lambda run, node: () if sync._repeat_plan(node) is not None
                      else None)

    assert ("late_unknown", LAUNCHES[0]) in _differing(monkeypatch, careless, _named("late_unknown"))


def test_footprints_not_copied_are_caught(monkeypatch):
    def uncopied(patch):
        real = sync.BlockRun.replay_trips

        def replay(run, count, first):
            saved = run.footprint
            run.footprint = {}
            try:
                real(run, count, first)
            finally:
                run.footprint = saved

        patch.setattr(sync.BlockRun, "replay_trips", replay)

    assert ("global_each_trip", LAUNCHES[1]) in _differing(monkeypatch, uncopied, _named("global_each_trip"))


def test_steps_alone_are_caught(monkeypatch):
    # a replay that only counts steps misses the race across the back edge and the barriers it needs
    def steps_only(patch):
        patch.setattr(sync.BlockRun, "replay_trips",
                      lambda run, count, first: run.take_steps((run.steps - first.steps) * count))

    differing = {name for name, _ in _differing(monkeypatch, steps_only, _named("back_edge_race", "two_barriers"))}
    assert differing == {"back_edge_race", "two_barriers"}


def _without_check(number):
    """A variant of `replay_trips` that skips its `number`th barrier check (0: the one of the interval
    across the back edge, made by `close_interval`; 1: the one after it)."""
    def change(patch):
        real = sync.BlockRun.replay_trips

        def replay(run, count, first):
            calls = []
            checked = sync.BlockRun.check_barrier

            def check(previous, current):
                calls.append(1)
                if len(calls) - 1 != number:
                    checked(run, previous, current)

            run.check_barrier = check
            try:
                real(run, count, first)
            finally:
                del run.check_barrier

        patch.setattr(sync.BlockRun, "replay_trips", replay)
    return change


def test_the_check_after_the_back_edge_is_caught(monkeypatch):
    assert ("two_barriers", LAUNCHES[0]) in _differing(monkeypatch, _without_check(1), _named("two_barriers"))


def test_one_barrier_a_trip_is_needed():
    # its barrier is needed (each trip's interval stores what the next one's loads); the check after
    # the loop, whose interval starts with the last trip's tail, finds that too (the check after the
    # back edge differs from it only in word sizes, where the intervals hold narrower elements)
    assert _findings(dict(KERNELS)["one_barrier"], *LAUNCHES[0])[0]["redundant_barriers"] == []


def test_a_trace_cut_in_a_repeated_loop_is_the_walk_s():
    # the walk cuts the trace mid-loop (the repeat leaves trips that would pass the cap to it), before
    # the race after the loop; a repeat that took the steps itself would stop at the cap all the same
    for launch in LAUNCHES:
        findings = _findings(dict(KERNELS)["long"], *launch)[0]
        assert "trace cut after 20000 steps" in findings["notes"] and not findings["global_races"]
