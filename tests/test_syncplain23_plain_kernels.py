"""`sync.analyze`'s shortcuts for plain kernels (PLAIN_SHORTCUTS): a kernel with no barrier, no
shared-memory access, no atomic, no fence and no warp intrinsic (`_plain`) still runs the executor
when it stores to global memory, but skips what only those need (the lines of early exits, the
atomics' calls, the barrier and atomic bookkeeping of the result); a kernel without loops takes its
events as its loop tree and has no varying names. These compare the whole SyncResult (every field,
notes in order) with the general path's for every kernel of every .cu file under examples/, corpus/
and tests/kernels/, under the launches `analyze_source` gives them and under a few more."""

from __future__ import annotations

from pathlib import Path

import pytest

import kernelscope.analyze as analyze
from kernelscope.analyses import sync
from kernelscope.frontend import parse_file
from kernel_bodies import kernel_of

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(str(p.relative_to(ROOT)) for folder in ("examples", "corpus", "tests/kernels")
               for p in (ROOT / folder).rglob("*.cu"))
# (block, bindings, grid, block_assumed) each kernel is analysed under besides its own launches
SETTINGS = [((256, 1, 1), {}, None, True), ((256, 1, 1), {}, None, False), ((64, 2, 1), {"n": 300}, (3, 1, 1), False)]
# plain kernels of shapes the files may lack: a race within a block and between blocks, an exit,
# a read-only array, a loop-free kernel with an unknown address, one whose trace is cut
INLINE = [
    ("int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; out[0] = x[i]; out[i + 1] = x[i];",
     "const float* x, float* out, int n"),
    ("int i = threadIdx.x; if (i < n) out[i] = x[i * w]; out[w] = 1.0f;", "const float* x, float* out, int n, int w"),
    ("for (int a = 0; a < 64; ++a) for (int b = 0; b < 64; ++b) for (int c = 0; c < 64; ++c)\n"
     "    out[threadIdx.x * c] = x[a * b + c];", "const float* x, float* out"),
    ("int i = blockIdx.x * blockDim.x + threadIdx.x; y[i / 2] = y[i] + 1.0f;", "float* y"),
]


def _file_calls(path: str) -> list:
    """(kernel, block, bindings, grid, block_assumed) of every sync analysis `analyze_source` makes."""
    calls: list = []
    real = analyze._sync

    def captured(kernel, block, bindings, grid, block_assumed):
        calls.append((kernel, (block.x, block.y, block.z), bindings, grid, block_assumed))
        return real(kernel, block, bindings, grid, block_assumed)

    analyze._sync = captured
    try:
        analyze.analyze_source((ROOT / path).read_text(), path, registers="estimate")
    finally:
        analyze._sync = real
    return calls


def _both_ways(monkeypatch, kernel, block, bindings, grid, block_assumed) -> tuple:
    results = []
    for shortcuts in (True, False):
        monkeypatch.setattr(sync, "PLAIN_SHORTCUTS", shortcuts)
        results.append(sync.analyze(kernel, block, dict(bindings), grid=grid, block_assumed=block_assumed))
    return tuple(results)


def _assert_same(fast, general, where: str) -> None:
    assert fast == general, where
    assert fast.to_json() == general.to_json(), where
    assert fast.notes == general.notes, where   # (in order)


@pytest.mark.parametrize("path", FILES)
def test_every_kernel_of_the_files_as_the_general_path(monkeypatch, path):
    calls = _file_calls(path)
    seen = set()
    for kernel, block, bindings, grid, assumed in calls:
        _assert_same(*_both_ways(monkeypatch, kernel, block, bindings, grid, assumed), f"{path}: {kernel.name}")
        if id(kernel) not in seen:
            seen.add(id(kernel))
            for setting in SETTINGS:
                _assert_same(*_both_ways(monkeypatch, kernel, *setting), f"{path}: {kernel.name} {setting}")


@pytest.mark.parametrize("body, params", INLINE)
def test_inline_plain_kernels_as_the_general_path(monkeypatch, body, params):
    kernel = kernel_of(body, params)
    assert sync._plain(kernel)
    for setting in SETTINGS + [((128, 1, 1), {"n": 100}, (2, 1, 1), False)]:
        fast, general = _both_ways(monkeypatch, kernel, *setting)
        _assert_same(fast, general, str(setting))


def test_the_inline_kernels_find_what_the_shortcuts_must_keep(monkeypatch):
    """The inline kernels reach the outputs a plain kernel can have: races within a block and
    between blocks, unknown addresses, loop notes and a trace cut."""
    found = [sync.analyze(kernel_of(body, params), (128, 1, 1), {"n": 100}, grid=(2, 1, 1))
             for body, params in INLINE]
    assert found[0].global_races and found[3].global_races
    assert any("address of" in note for note in found[1].notes)
    assert any("trace cut" in note for note in found[2].notes)


def _synchronizes_as_before(kernel) -> bool:
    """_has_synchronization as it was written before `_plain` (the reference both are held to)."""
    return bool(kernel.barriers) or any(a.space == "shared" or a.op == "atomic" for a in kernel.accesses) or \
        any(c.name in sync.FENCES or sync._is_warp_intrinsic(c.name) for c in kernel.calls) or \
        sync._may_share_global(kernel)


def test_plain_is_has_synchronization_without_global_stores():
    for path in FILES[::7]:
        for kernel in parse_file((ROOT / path).read_text(), path).kernels:
            before = _synchronizes_as_before(kernel)
            assert sync._has_synchronization(kernel) == before
            assert before == (not sync._plain(kernel) or sync._may_share_global(kernel))


def test_a_kernel_without_loops_has_events_outside_every_loop():
    """The flat tree's premise: `kernel.loops` empty means no record sits in a loop."""
    for path in FILES:
        for kernel in parse_file((ROOT / path).read_text(), path).kernels:
            if not kernel.loops:
                assert all(not event.record.context.loops for event in sync.program_order(kernel))


def test_the_shortcuts_are_taken(monkeypatch):
    """The comparisons above are not vacuous: plain kernels end in `_plain_result`, kernels without
    loops build no loop tree, and with PLAIN_SHORTCUTS off neither happens."""
    taken = {"plain": 0, "trees": 0}
    plain_result, loop_tree = sync._plain_result, sync.loop_tree

    def counted_result(found):
        taken["plain"] += 1
        return plain_result(found)

    def counted_tree(events):
        taken["trees"] += 1
        return loop_tree(events)

    monkeypatch.setattr(sync, "_plain_result", counted_result)
    monkeypatch.setattr(sync, "loop_tree", counted_tree)
    flat = kernel_of(INLINE[0][0], INLINE[0][1])
    looping = kernel_of(INLINE[2][0], INLINE[2][1])
    for shortcuts, expected in ((True, {"plain": 2, "trees": 1}), (False, {"plain": 0, "trees": 2})):
        monkeypatch.setattr(sync, "PLAIN_SHORTCUTS", shortcuts)
        taken.update(plain=0, trees=0)
        for kernel in (flat, looping):
            sync.analyze(kernel, (128, 1, 1), {"n": 100}, grid=(2, 1, 1))
        assert taken == expected


def test_ordered_sorts_as_the_lambdas_did():
    """`_ordered` (attrgetter keys, no sort for none) against the keys the result once sorted by,
    ties included (kept in the order found)."""
    race = sync.SharedRace
    races = {k: race(array=f"a{k}", kind=kind, first_line=first, first_column=k, second_line=second, second_column=0,
                     scope="block", message="")
             for k, (first, second, kind) in enumerate([(5, 7, "WAW"), (3, 9, "RAW"), (5, 7, "RAW"), (3, 9, "RAW"),
                                                        (3, 2, "WAW")])}
    assert sync._ordered(races, sync._BY_LINES) == \
        tuple(sorted(races.values(), key=lambda r: (r.first_line, r.second_line, r.kind)))
    sites = {k: sync.Site(f"s{k}", line, column) for k, (line, column) in enumerate([(4, 2), (4, 1), (2, 9), (4, 1)])}
    assert sync._ordered(sites, sync._BY_POSITION) == tuple(sorted(sites.values(), key=lambda s: (s.line, s.column)))
    assert sync._ordered({}, sync._BY_POSITION) == ()
