"""The memory and intensity analyses' shortcuts answer as their general paths do: ExecWeights'
_active_share is _share(mask[active]) float for float; Lanes.mask_in, which ANDs without copying
(and a negated guard as `mask > truth`), is condition_mask in the loop's environment; what Lanes
keeps (an address's bytes, what a load raises, the warp-uniform stand-in addresses through
Lanes.kept) gives the reports computed without keeping anything."""

import json

import numpy as np
import pytest

from kernelscope import analyze
from kernelscope import symbolic as sx
from kernelscope.analyses import memory, threads, trips
from kernelscope.analyses.threads import BlockShape, Lanes, active_slots, thread_env
from kernelscope.analyses.trips import ExecWeights
from kernelscope.frontend.parse import parse_file

# loop-variable guards, negated ones (else arms) among them, and indirect accesses, warp-uniform
# (a row index per warp) or not, in blocks that fill their warps and blocks that do not
GUARDED = """
__global__ void guarded(float* a, const float* b, const int* idx, int n, int m) {
    int t = threadIdx.x;
    for (int i = 0; i < 8; i++) {
        if (t + i < n) {
            a[t] += b[t + i];
        } else {
            a[t] -= b[idx[t]];
        }
        for (int j = 0; j < 4; j++) {
            if (t * j > m + i) a[t] *= 2.0f;
            else a[t + j] += b[idx[t / 32] * 64 + (t % 32)];
        }
    }
    if (t < m) a[idx[t / 32] * n + t % 32] = 1.0f;
}
"""

BLOCKS = [(256,), (48,), (16, 3), (100,)]
BINDINGS = [{}, {"n": 40, "m": 7}, {"n": 0, "m": 300}]


@pytest.mark.parametrize("threads_in_block", [32, 48, 100, 256])
def test_active_share_is_the_share_of_the_selection(threads_in_block):
    block = BlockShape(threads_in_block)
    weights = ExecWeights(thread_env(block), block.slots, active_slots(block))
    rng = np.random.default_rng(threads_in_block)
    for density in (0.0, 0.1, 0.5, 0.9, 1.0):
        mask = rng.random(block.slots) < density
        assert weights._active_share(mask) == trips._share(mask[weights.active])


def test_active_share_with_no_active_slot():
    block = BlockShape(32)
    weights = ExecWeights(thread_env(block), block.slots, np.zeros(block.slots, dtype=bool))
    mask = np.ones(block.slots, dtype=bool)
    assert weights._active_share(mask) == trips._share(mask[weights.active]) == 0.0


@pytest.mark.parametrize("block", BLOCKS, ids=str)
@pytest.mark.parametrize("bindings", BINDINGS, ids=str)
def test_mask_in_is_condition_mask_in_the_loop_environment(block, bindings, monkeypatch):
    compared = []
    original = Lanes.mask_in

    def checked(self, conditions, env, changed):
        mask = original(self, conditions, env, changed)
        assert np.array_equal(mask, threads.condition_mask(conditions, env, self.slots))
        compared.append(any(c.negated for c in conditions))
        return mask

    monkeypatch.setattr(Lanes, "mask_in", checked)
    monkeypatch.setattr(trips, "COLUMN_VALUES", False)     # (intens27's path asks mask_in for few rows)
    analyze.analyze_source(GUARDED, "x.cu", registers="estimate", bindings=bindings, block=block)
    assert compared and any(compared)      # negated guards were met


def _report(text: str, block, bindings) -> str:
    result = analyze.analyze_source(text, "x.cu", registers="estimate", bindings=bindings, block=block)
    return json.dumps([k.to_json() for k in result.kernels], sort_keys=True, default=str)


def _keeping_nothing(monkeypatch):
    """Lanes without its kept answers: every value evaluated again, bytes made again."""
    monkeypatch.setattr(Lanes, "kept", lambda self, key, compute: compute())
    monkeypatch.setattr(Lanes, "as_bytes", lambda self, values: values.tobytes())
    monkeypatch.setattr(Lanes, "values", lambda self, expr, stand_in=threads.PLACEHOLDER:
                        threads.evaluate_per_thread(expr, threads.with_placeholders(expr, self.env, stand_in),
                                                    self.slots))


@pytest.mark.parametrize("block", BLOCKS, ids=str)
@pytest.mark.parametrize("bindings", BINDINGS, ids=str)
def test_kept_answers_give_the_reports_of_the_general_path(block, bindings, monkeypatch):
    kept = [_report(GUARDED, block, bindings) for _ in range(2)]   # the second from what the first kept
    with monkeypatch.context() as patch:
        _keeping_nothing(patch)
        general = _report(GUARDED, block, bindings)
    assert kept[0] == kept[1] == general


def test_the_fixture_has_warp_uniform_and_plain_indirect_accesses():
    """The comparison above means something only if both kinds of indirect access occur."""
    result = analyze.analyze_source(GUARDED, "x.cu", registers="estimate", bindings={"n": 40, "m": 7},
                                    block=(256,))
    accesses = [a for k in result.kernels for a in k.to_json()["accesses"]]
    patterns = {a["pattern"] for a in accesses}
    notes = [a.get("note", "") for a in accesses]
    assert "indirect" in patterns
    assert any("same across each warp" in note for note in notes)


def test_a_kept_load_raises_again_as_the_evaluation_does():
    block = BlockShape(64)
    env = thread_env(block)
    load = sx.Load("b", sx.Sym("threadIdx.x"))
    lanes = Lanes(env, block.slots, active_slots(block))
    raised = []
    for _ in range(2):
        with pytest.raises(sx.Indirect) as info:
            lanes.values(load)
        raised.append((info.type, info.value.args, str(info.value)))
    with pytest.raises(sx.Indirect) as info:
        threads.evaluate_per_thread(load, env, block.slots)
    assert raised[0] == raised[1] == (info.type, info.value.args, str(info.value))


def test_as_bytes_is_tobytes_made_once():
    block = BlockShape(64)
    lanes = Lanes(thread_env(block), block.slots, active_slots(block))
    values = lanes.values(sx.Sym("threadIdx.x"))
    assert lanes.as_bytes(values) == values.tobytes()
    assert lanes.as_bytes(values) is lanes.as_bytes(values)
    other = values.copy()
    assert lanes.as_bytes(other) == other.tobytes()


def test_warp_uniform_addresses_are_kept_per_mask():
    """The kept stand-in addresses are those _with_warp_uniform_loads computes for that mask."""
    kernel = parse_file(GUARDED, "x.cu").kernels[0]
    block = BlockShape(100)
    weights = ExecWeights(thread_env(block), block.slots, active_slots(block))
    lanes = weights.lanes
    checked = 0
    for access in kernel.accesses:
        try:
            lanes.values(access.address)
            continue
        except sx.Indirect:
            pass
        active = lanes.active_mask(access.context.conditions)
        env = threads.bind_missing(lanes.env, sx.free_names(access.address), threads.PLACEHOLDER)
        direct = memory._with_warp_uniform_loads(access.address, env, block.slots, active)
        result = memory.analyze(kernel, block, weights=weights)
        assert result is not None
        key = ("warp-uniform loads", sx.structure_key(access.address), active.tobytes())
        assert key in lanes._kept.answers
        kept = lanes._kept.answers[key]
        assert (kept is None and direct is None) or np.array_equal(kept, direct)
        checked += 1
    assert checked


LOOPS = """
__global__ void loops(float* a, int n, int m) {
    int t = threadIdx.x;
    for (int i = 0; i < n; i++) a[t + i] = 0.0f;
    for (int i = t; i < n; i += blockDim.x) a[i] = 1.0f;
    for (int i = n; i > 0; i >>= 1) a[t + i] = 2.0f;
    for (int i = t; i < 64; i += m) a[i] = 3.0f;
    for (int k = 0; k < 4; k++) a[t + k] = 4.0f;
    for (int j = 0; j < n; j++) a[t + j] = 5.0f;
}
"""


def _masks(block):
    whole = active_slots(block)
    first_half = np.arange(block.slots) < block.slots // 2
    return [whole, first_half, np.zeros(block.slots, dtype=bool)]


@pytest.mark.parametrize("bindings", [{}, {"n": 100, "m": 3}, {"n": 7, "m": 0}], ids=str)
@pytest.mark.parametrize("threads_in_block", [64, 100])
def test_kept_trip_counts_and_values_are_those_of_the_environment(bindings, threads_in_block):
    """Loops alike (here `i` and `j` to n) and ExecWeights of one environment share their trip
    counts and values through Lanes.kept; each is still the one its own active slots give."""
    block = BlockShape(threads_in_block)
    kernel = parse_file(LOOPS, "loops.cu").kernels[0]
    loops = {id(c.loops[-1]): c.loops[-1] for a in kernel.accesses for c in [a.weight_context] if c.loops}
    assert len(loops) == 6
    env = thread_env(block, None, bindings)
    for _ in range(2):                         # the second round from what the first kept
        for active in _masks(block):
            weights = ExecWeights(env, block.slots, active)
            for loop in loops.values():
                assert weights.loop(loop) == trips.trip_count(loop, env, block.slots, active)
                assert weights._in_env(trips._loop_values, loop) == \
                    trips._loop_values(loop, env, block.slots, active)


@pytest.mark.parametrize("threads_in_block", [32, 48, 100, 256])
@pytest.mark.parametrize("elem_bytes", [1, 4, 8, 16, 48])
def test_worst_sectors_are_one_sector_per_active_lane_per_warp(threads_in_block, elem_bytes):
    """_worst_sectors, kept per mask and element size, is the worst case written out warp by warp."""
    block = BlockShape(threads_in_block)
    rng = np.random.default_rng(threads_in_block + elem_bytes)
    for density in (0.0, 0.3, 1.0):
        active = (rng.random(block.slots) < density) & active_slots(block)
        per_warp = [int(w.sum()) for w in active.reshape(-1, threads.WARP_SIZE)]
        issuing = [n for n in per_warp if n]
        worst = memory._worst_sectors(active.tobytes(), elem_bytes)
        if not issuing:
            assert worst is None
            continue
        per_lane = max(1, -(-elem_bytes // memory.SECTOR))
        sectors = float(np.mean([min(n * per_lane, 32 * per_lane) for n in issuing]))
        ideal = float(np.mean([np.ceil(n * elem_bytes / memory.SECTOR) for n in issuing]))
        assert worst == (sectors, ideal)
