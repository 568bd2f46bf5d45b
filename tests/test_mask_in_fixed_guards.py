"""Lanes.mask_in keeps the AND of the guards that read no loop variable once per set of guards
(threads.KEEP_FIXED_GUARDS) instead of re-applying them for every combination of loop values: the
execution counts, FLOPs and memory figures are those of the general path, guard for guard."""

import json
from pathlib import Path

import numpy as np
import pytest

from kernelscope import analyze
from kernelscope.analyses import memory, threads, trips

ROOT = Path(__file__).resolve().parents[1]

# guards inside uniform loops: ones that read only the thread index or sizes (kept), ones that read
# the loop variables (evaluated per value), both negated (else arms) and nested
GUARDED = """
__global__ void guarded(float* a, const float* b, int n, int m) {
    int t = threadIdx.x;
    for (int i = 0; i < 8; i++) {
        if (t < n) {
            for (int j = 0; j < 4; j++) {
                if (t + i * j < m) a[t] += b[t + j] * 2.0f;
                else a[t] -= b[t] * 3.0f;
            }
        } else {
            if (i < 3) a[t] = b[t] * b[t];
        }
        if (t % 2 == 0 && i + t < 100) a[t] *= 1.5f;
    }
}
"""


def _report(text: str, keep: bool, monkeypatch) -> str:
    monkeypatch.setattr(threads, "KEEP_FIXED_GUARDS", keep)
    # (every count and mask computed in each analysis, none taken from one kept by an earlier
    # analysis of the same text: restfast15's KEEP_COUNTS and SHARE_MASK_BYTES)
    monkeypatch.setattr(trips, "KEEP_COUNTS", False)
    monkeypatch.setattr(memory, "SHARE_MASK_BYTES", False)
    result = analyze.analyze_source(text, "x.cu", registers="estimate", bindings={"n": 200, "m": 150})
    return json.dumps([k.to_json() for k in result.kernels], sort_keys=True, default=str)


def test_guarded_loops_match_the_general_path(monkeypatch):
    assert _report(GUARDED, True, monkeypatch) == _report(GUARDED, False, monkeypatch)


def test_the_fixture_has_kept_and_per_value_guards(monkeypatch):
    """The comparison above means something only if mask_in meets both kinds of guard."""
    seen = []
    original = threads.Lanes._fixed_part

    def spy(self, conditions, changed):
        part = original(self, conditions, changed)
        seen.append((len(conditions) - len(part[2]), len(part[2]),
                     any(c.negated for c in conditions)))
        return part

    monkeypatch.setattr(threads.Lanes, "_fixed_part", spy)
    _report(GUARDED, True, monkeypatch)
    assert any(kept and per_value for kept, per_value, _ in seen)
    assert any(kept and negated for kept, _, negated in seen)


def test_a_fixed_part_that_drops_negation_is_caught(monkeypatch):
    """A broken split (else arms kept as if they were the if arm) changes the report."""
    def broken(self, conditions, changed):
        fixed = np.ones(self.slots, dtype=bool)
        varying = []
        for condition in conditions:
            if changed.keys().isdisjoint(condition.expr._env_names):
                truth = self.condition(condition.expr)
                if truth is not None:
                    fixed &= truth
            else:
                varying.append(condition)
        return conditions, fixed, varying

    general = _report(GUARDED, False, monkeypatch)
    monkeypatch.setattr(threads.Lanes, "_fixed_part", broken)
    assert _report(GUARDED, True, monkeypatch) != general


@pytest.mark.parametrize("path", sorted(ROOT.glob("examples/*.cu")) + sorted(ROOT.glob("corpus/*/*.cu"))[:40],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_hand_written_kernels_match_the_general_path(path, monkeypatch):
    text = path.read_text()
    assert _report(text, True, monkeypatch) == _report(text, False, monkeypatch)
