"""sync25: a loop of warp intrinsics (and loads and stores) counts as idle after its first trip
(`BlockRun.idle_from_here`) when each intrinsic's lane mask and conditions read nothing the loop
changes (`_mask_fixed`: not its counter, not what it carries) and every thread runs every trip
(`_every_thread_iterates`): each later trip asks its mask check the same question as the first, whose
mismatch, if any, is recorded already. The warp reductions' shuffle loops take it.
- The findings (mismatches, races, barriers, notes, trip counts, footprints kept for comparing
  blocks) of every project kernel and of kernels built for it equal those with the shortcut off
  (`IDLE_WARP_CALLS`), under three launches; the path is taken.
- Variants that drop one of its rules are caught: a mask that reads the counter, a condition that
  reads it, and trips that not every lane runs (each a mismatch found only in a later trip).
"""

from __future__ import annotations

from kernelscope.analyses import sync
from test_syncloop23_repeated_trips import LAUNCHES, _differing, _findings, body_and_project_kernels

BODIES = {
    # the warp reduction: the same full mask in every trip, every lane in every trip
    "shuffle_reduce": """
    float v = x[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0)
        y[threadIdx.x / 32] = v;
    """,
    # with a load of the loop's own (its address unknown while n is): it decides as before
    "shuffle_with_a_load": """
    float v = x[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset) + x[n + threadIdx.x];
    y[threadIdx.x] = v;
    """,
    # the mask reads the counter: half the warp left out of it from the third trip on
    "mask_reads_counter": """
    float v = x[threadIdx.x];
    for (int t = 0; t < 4; t++)
        v += __shfl_xor_sync(t < 2 ? 0xffffffff : 0x0000ffff, v, 1);
    y[threadIdx.x] = v;
    """,
    # a condition reads the counter: in the second trip half the lanes named by the mask skip it
    "condition_reads_counter": """
    float v = x[threadIdx.x];
    for (int t = 0; t < 4; t++)
        if (t == 0 || threadIdx.x % 32 < 16)
            v += __shfl_xor_sync(0xffffffff, v, 1);
    y[threadIdx.x] = v;
    """,
    # lanes 0-15 run one trip, lanes 16-31 two: the second trip's full mask names lanes that are done
    "uneven_trips": """
    float v = x[threadIdx.x];
    for (int t = 0; t < 1 + (threadIdx.x % 32) / 16; t++)
        v += __shfl_xor_sync(0xffffffff, v, 1);
    y[threadIdx.x] = v;
    """,
}


KERNELS = body_and_project_kernels(BODIES)


def _named(*names):
    return [(name, kernel) for name, kernel in KERNELS[:len(BODIES)] if name in names]


def _off(patch):
    patch.setattr(sync, "IDLE_WARP_CALLS", False)


def test_idle_warp_calls_change_no_finding(monkeypatch):
    assert _differing(monkeypatch, _off, KERNELS) == []


def test_idle_warp_calls_happen(monkeypatch):
    idle = []
    real = sync.BlockRun.idle_trip_steps

    def counting(run, node, *args):
        if any(type(child) is not sync.LoopNode and child.warp_call for child in node.children):
            idle.append(node)
        return real(run, node, *args)

    monkeypatch.setattr(sync.BlockRun, "idle_trip_steps", counting)
    for name, kernel in _named("shuffle_reduce", "shuffle_with_a_load"):
        _findings(kernel, *LAUNCHES[0])
        assert idle, name
        idle.clear()
    for _, kernel in KERNELS[len(BODIES):]:
        _findings(kernel, *LAUNCHES[0])
    assert len(idle) >= 5      # (the project's warp reductions)


def test_the_mismatches_are_found_in_later_trips():
    # (what the variants below must not lose: each body's mismatch comes from a trip after the first)
    for name, kernel in _named("mask_reads_counter", "condition_reads_counter", "uneven_trips"):
        assert _findings(kernel, *LAUNCHES[0])[0]["mask_mismatches"], name


def test_a_mask_blind_to_the_loop_is_caught(monkeypatch):
    def blind(patch):
        patch.setattr(sync, "_mask_fixed", lambda event, changed: True)

    differing = {name for name, _ in _differing(monkeypatch, blind, _named(
        "mask_reads_counter", "condition_reads_counter"))}
    assert differing == {"mask_reads_counter", "condition_reads_counter"}


def test_conditions_left_out_of_the_mask_check_are_caught(monkeypatch):
    def mask_only(patch):
        def fixed(event, changed):
            read = sync._names_read((event.record.args[0],))
            return read is not None and changed.isdisjoint(read)

        patch.setattr(sync, "_mask_fixed", fixed)

    assert [name for name, _ in _differing(monkeypatch, mask_only, _named("condition_reads_counter"))] == \
        ["condition_reads_counter"] * len(LAUNCHES)


def test_uneven_trips_are_caught(monkeypatch):
    def everyone(patch):
        patch.setattr(sync, "_every_thread_iterates", lambda iterations, everyone: True)

    assert {name for name, _ in _differing(monkeypatch, everyone, _named("uneven_trips"))} == {"uneven_trips"}
