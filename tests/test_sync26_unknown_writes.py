"""sync26: REPEAT_TRIPS for loops whose written arrays' accesses read the counter (`REPEAT_UNKNOWN_WRITES`,
`_unknown_writes`, `BlockRun.trips_alike`, `_recorded_alike`). Such an access is watched: in every trip
replayed it must record the same instance (addresses, threads, certainty) or none, or one at an
unknown address, which the race checks leave out and the hazard check only asks the array and the
operation of; so which of them records may change from trip to trip (stencil_3d's z_march: `out[c]`
in one branch or the other) as long as each segment's (array, operation) of those stays. Their notes
are made by the replay, in the walk's order. A loop whose first trip differs (`k == 0`) may repeat its
second (`repeats_second`). Read-only loads not noted yet may now also reach nobody in a later trip, or
be noted by the replay.
- The findings (races, barriers, notes and their order, trip counts, footprints kept for comparing
  blocks) of every project kernel and of kernels built for it equal those with the switch off and with
  REPEAT_TRIPS off, under three launches; the path is taken, from the first trip and from the second.
- Variants that drop one of its rules are caught: known instances compared without their threads or
  without their addresses, unknown ones without their array, and the notes not made.
"""

from __future__ import annotations

import pytest

from kernelscope.analyses import sync
from test_syncloop23_repeated_trips import LAUNCHES, _differing, _findings, body_and_project_kernels

BODIES = {
    # stencil_3d's shape: `out` at an unknown address (n unknown) in one branch or the other
    "branches_unknown": """
    __shared__ float s[258];
    for (int k = 0; k < 6; k++) {
        __syncthreads();
        s[threadIdx.x + 1] = x[k * n + threadIdx.x];
        __syncthreads();
        if (k == 0 || k == n - 1)
            y[k * n + threadIdx.x] = s[threadIdx.x + 1];
        else
            y[k * n + threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + 2];
    }
    """,
    # a store every thread makes to one word from the second trip on: a race in those trips only
    "race_from_second": """
    __shared__ float s[256];
    for (int t = 0; t < 5; t++) {
        if (t > 0)
            s[0] = x[threadIdx.x];
        __syncthreads();
        y[threadIdx.x] = s[threadIdx.x];
        __syncthreads();
    }
    """,
    # the same words in every trip, by more threads each trip: two threads on a word from the third on
    "threads_grow": """
    __shared__ float s[256];
    for (int t = 1; t < 6; t++) {
        if (threadIdx.x < 4 * t)
            s[threadIdx.x % 8] = x[threadIdx.x];
        __syncthreads();
        y[threadIdx.x] = s[threadIdx.x % 8];
        __syncthreads();
    }
    """,
    # the same threads in every trip (from the second), at words that move: apart in trip 1, one word later
    "words_move": """
    __shared__ float s[256];
    for (int t = 0; t < 5; t++) {
        if (t > 0)
            s[threadIdx.x / (t < 2 ? 1 : 64)] = x[threadIdx.x];
        __syncthreads();
        y[threadIdx.x] = s[threadIdx.x];
        __syncthreads();
    }
    """,
    # an unknown write that moves from `a` to `b` after the first trip, `b` read after the barrier:
    # the first barrier is needed from the second trip on only
    "unknown_moves": """
    __shared__ float a[256];
    __shared__ float b[256];
    for (int t = 0; t < 5; t++) {
        if (t == 0)
            a[n * threadIdx.x] = 1.0f;
        else
            b[n * threadIdx.x] = 2.0f;
        __syncthreads();
        y[threadIdx.x] = b[threadIdx.x];
        __syncthreads();
    }
    """,
    # an unknown write noted in the second trip first (the other branch's), a note after it in order
    "noted_late": """
    __shared__ float s[256];
    for (int t = 0; t < 5; t++) {
        if (t == 0)
            s[n * threadIdx.x] = 1.0f;
        else
            s[n * threadIdx.x + 1] = 2.0f;
        __syncthreads();
        y[threadIdx.x] = s[threadIdx.x] + x[n * t + threadIdx.x];
        __syncthreads();
    }
    """,
    # a read-only load that reaches nobody in the first trip and is noted in the second
    "load_noted_late": """
    __shared__ float s[256];
    float acc = 0.0f;
    for (int t = 0; t < 5; t++) {
        s[threadIdx.x] = t > 0 ? x[n * t + threadIdx.x] : 0.0f;
        __syncthreads();
        acc += s[255 - threadIdx.x];
        __syncthreads();
    }
    y[threadIdx.x] = acc;
    """,
    # a written array's address known in some trips, unknown in one (division by zero in the third)
    "unknown_in_one_trip": """
    __shared__ float s[256];
    for (int t = 0; t < 5; t++) {
        s[threadIdx.x + 64 / (2 - t)] = x[threadIdx.x];
        __syncthreads();
        y[threadIdx.x] = s[threadIdx.x];
        __syncthreads();
    }
    """,
}

KERNELS = body_and_project_kernels(BODIES)
BODY_KERNELS = KERNELS[:len(BODIES)]


def _switch_off(patch):
    patch.setattr(sync, "REPEAT_UNKNOWN_WRITES", False)


def _repeat_off(patch):
    patch.setattr(sync, "REPEAT_TRIPS", False)


@pytest.mark.parametrize("change", [_switch_off, _repeat_off])
def test_no_finding_changes(monkeypatch, change):
    assert _differing(monkeypatch, change, KERNELS) == []


def _replays(monkeypatch, kernels, launches=LAUNCHES) -> list:
    """(kernel, the trip the replay repeated, trips replayed, whether the plan watches a written array)."""
    replayed = []
    real = sync.BlockRun.replay_trips
    current = {}

    def counting(run, count, first):
        plan = run.repeat_plan(current["node"])
        replayed.append((current["name"], first.trip, count, any(seg is not None for _, _, seg in plan)))
        return real(run, count, first)

    real_repeats = sync.BlockRun.repeats_from_here

    def repeats(run, node, *args):
        current["node"] = node
        return real_repeats(run, node, *args)

    monkeypatch.setattr(sync.BlockRun, "replay_trips", counting)
    monkeypatch.setattr(sync.BlockRun, "repeats_from_here", repeats)
    for name, kernel in kernels:
        current["name"] = name
        for launch in launches:
            _findings(kernel, *launch)
    return replayed


def test_the_path_is_taken(monkeypatch):
    replayed = _replays(monkeypatch, BODY_KERNELS, LAUNCHES[:1])
    by_name = {}
    for name, trip, count, watches_writes in replayed:
        by_name.setdefault(name, set()).add((trip, count, watches_writes))
    assert by_name["branches_unknown"] == {(0, 5, True)}
    assert by_name["race_from_second"] == {(1, 3, True)}
    assert by_name["unknown_moves"] == {(1, 3, True)}
    assert by_name["noted_late"] == {(0, 4, True)}
    assert by_name["load_noted_late"] == {(0, 4, False)}
    assert "threads_grow" not in by_name and "words_move" not in by_name and "unknown_in_one_trip" not in by_name
    # the project's kernels: stencil_3d's z_march among them, and some from the second trip
    project = _replays(monkeypatch, KERNELS[len(BODIES):], LAUNCHES[:1])
    assert any(name == "stencil_3d" and watches for name, _, _, watches in project)
    assert sum(watches for *_, watches in project) >= 10
    assert any(trip == 1 for _, trip, _, _ in project)


def _named(*names):
    return [(name, kernel) for name, kernel in BODY_KERNELS if name in names]


def _careless_alike(ignore: str):
    """A `_recorded_alike` that leaves out one of what it compares: "threads" or "addresses" of
    known instances, or the "array" of unknown ones."""
    def change(patch):
        def alike(recorded, other):
            def blurred(entries):
                out = []
                for entry in entries:
                    if entry is not None and entry[0] is sync._AT_KNOWN:
                        kind, addresses, threads, certain = entry
                        if ignore == "threads":
                            threads = sync._every_thread(threads.size) >= 0
                        if ignore == "addresses":
                            addresses = addresses * 0
                        entry = (kind, addresses, threads, certain)
                    elif entry is not None and ignore == "array":
                        entry = entry[:3] + ("?",) + entry[4:]
                    out.append(entry)
                return out
            return real(blurred(recorded), blurred(other))

        real = sync._recorded_alike
        patch.setattr(sync, "_recorded_alike", alike)
    return change


def test_threads_not_compared_are_caught(monkeypatch):
    assert ("threads_grow", LAUNCHES[0]) in _differing(monkeypatch, _careless_alike("threads"),
                                                       _named("threads_grow"))


def test_addresses_not_compared_are_caught(monkeypatch):
    assert ("words_move", LAUNCHES[0]) in _differing(monkeypatch, _careless_alike("addresses"),
                                                     _named("words_move"))


def test_arrays_of_unknown_writes_not_compared_are_caught(monkeypatch):
    assert ("unknown_moves", LAUNCHES[0]) in _differing(monkeypatch, _careless_alike("array"),
                                                        _named("unknown_moves"))


def test_first_trip_alone_is_caught(monkeypatch):
    # a check that only asks the first trip replayed from misses the race of the second trip on
    def first_only(patch):
        real = sync.BlockRun.trips_alike

        def alike(run, plan, env, forgotten, var, iterations, first, reaching):
            return real(run, plan, env, forgotten, var, iterations[:first.trip + 1], first, reaching)

        patch.setattr(sync.BlockRun, "trips_alike", alike)

    differing = {name for name, _ in _differing(monkeypatch, first_only, _named("threads_grow", "words_move"))}
    assert differing == {"threads_grow", "words_move"}


def test_notes_not_made_are_caught(monkeypatch):
    def unnoted(patch):
        real = sync.BlockRun.replay_trips

        def replay(run, count, first):
            first.first_noted = []
            return real(run, count, first)

        patch.setattr(sync.BlockRun, "replay_trips", replay)

    differing = {name for name, _ in _differing(monkeypatch, unnoted, _named("noted_late", "load_noted_late"))}
    assert differing == {"noted_late", "load_noted_late"}
