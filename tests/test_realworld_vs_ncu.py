"""Static predictions on kernels modelled on public programs (tests/kernels/realworld/) against the
H200's counters in profiles/measured/realworld_h200.csv (benchmarks/gpu/measure_realworld.py made it:
one ncu process over every launch, plus cuOccupancyMaxActiveBlocksPerMultiprocessor per launch).

Criteria: predicted mean sectors per request within 25% of ncu's for at least 95% of the
(launch, load|store) pairs; active blocks per SM equal to the driver's for every launch, and the
theoretical occupancy equal to ncu's, given the registers the build used.
"""

from __future__ import annotations

import csv
import functools
import math
import sys
from pathlib import Path

import pytest

from kernelscope.analyses import occupancy
from kernelscope.analyze import analyze_source

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "tests" / "kernels" / "realworld"
MEASURED = ROOT / "profiles" / "measured" / "realworld_h200.csv"


@functools.lru_cache(maxsize=None)
def manifest() -> dict:
    return {entry["id"]: entry for entry in tomllib.loads((KERNELS / "manifest.toml").read_text())["launch"]}


@functools.lru_cache(maxsize=None)
def measured() -> dict:
    with MEASURED.open() as handle:
        return {row["id"]: row for row in csv.DictReader(handle)}


@functools.lru_cache(maxsize=None)
def prediction(launch_id: str):
    """The analyzer told what the launch was (shape, scalar arguments), nothing about the types."""
    entry = manifest()[launch_id]
    source = (KERNELS / entry["file"]).read_text()
    result = analyze_source(source, entry["file"], block=tuple(entry["block"]), grid=tuple(entry["grid"]),
                            bindings=entry["bindings"], registers="estimate",
                            dynamic_smem=entry.get("dynamic_shared_bytes", 0))
    return next((k for k in result.kernels if k.kernel.name == entry["kernel"]), None)


def sector_pairs():
    return [(launch_id, op, key) for launch_id, row in measured().items() for op, key in (("load", "ld"), ("store", "st"))
            if float(row[f"{key}_requests"] or 0) > 0]


def test_the_ground_truth_has_60_launches_of_20_public_programs():
    launched = [entry for entry in manifest().values() if entry["program"] != "occupancy case"]
    assert len(launched) >= 60
    assert len({entry["program"] for entry in launched}) >= 20
    assert set(measured()) == set(manifest())


def test_every_measured_kernel_is_found_by_the_analyzer():
    assert [launch_id for launch_id in measured() if prediction(launch_id) is None] == []


def test_sectors_per_request_agree_with_ncu_within_25_percent_for_95_percent_of_pairs():
    misses = []
    pairs = sector_pairs()
    for launch_id, op, key in pairs:
        actual = float(measured()[launch_id][f"{key}_sectors_per_request"])
        predicted = prediction(launch_id).memory.mean_sectors_per_request(op)
        if predicted is None or abs(predicted - actual) > 0.25 * actual:
            misses.append((launch_id, op, predicted, actual))
    agreement = 1 - len(misses) / len(pairs)
    print(f"\nreal-world sectors/request agreement: {agreement:.1%} of {len(pairs)} pairs; misses: {misses}")
    assert len(pairs) >= 120
    assert agreement >= 0.95, misses


@pytest.mark.parametrize("launch_id", sorted(manifest()))
def test_active_blocks_equal_the_drivers_given_the_builds_registers(launch_id):
    entry, row = manifest()[launch_id], measured()[launch_id]
    kernel = prediction(launch_id)
    static = sum(array.static_bytes for array in kernel.kernel.shared_arrays)
    assert static == int(row["oracle_static_shared_bytes"])
    result = occupancy.compute("sm_90", math.prod(entry["block"]), int(row["oracle_num_regs"]), static,
                               entry.get("dynamic_shared_bytes", 0),
                               shared_memory_opt_in=kernel.kernel.shared_memory_opt_in)
    assert result.active_blocks_per_sm == int(row["oracle_active_blocks"])
    if row["theoretical_occupancy_pct"]:
        assert result.theoretical_occupancy * 100 == pytest.approx(float(row["theoretical_occupancy_pct"]), abs=0.01)


def test_a_launch_over_48_kb_without_the_opt_in_gets_0_blocks_and_an_error():
    kernel = prediction("row_scale_no_optin")
    assert int(measured()["row_scale_no_optin"]["oracle_active_blocks"]) == 0
    assert kernel.occupancy.active_blocks_per_sm == 0
    assert kernel.occupancy.limiter == "shared_memory_opt_in"
    assert [d.rule for d in kernel.diagnostics if d.severity == "error"] == ["KS303"]
    opted_in = prediction("row_scale_optin")
    assert opted_in.kernel.shared_memory_opt_in is True
    assert opted_in.occupancy.active_blocks_per_sm > 0
    assert "KS303" not in {d.rule for d in opted_in.diagnostics}


def test_the_committed_csv_is_what_the_script_makes_of_the_raw_counters(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks" / "gpu"))
    try:
        import measure_realworld
    finally:
        sys.path.pop(0)
    raw = ROOT / "profiles" / "measured" / "raw"
    out = tmp_path / "realworld.csv"
    measure_realworld.convert(raw / "realworld_h200_ncu.csv", raw / "realworld_oracle.csv", out,
                              measure_realworld.load_manifest())
    assert out.read_text() == MEASURED.read_text()


@pytest.mark.parametrize("launch_id", ["gemm", "atax_kernel1", "mvt_kernel1", "syrk", "interleave_aos",
                                       "interleave_soa", "mriq_ComputeQ", "transposeNaive_2048"])
def test_requests_per_warp_equal_ncus_where_the_compiler_keeps_values_in_registers(launch_id):
    """gemm's c[i * NJ + j] and atax's tmp[i] load once, not once per iteration (the loop only
    stores to them); interleave's dest fields load once although the loop stores the other fields,
    while src reloads after every store through dest (it may alias)."""
    entry, row = manifest()[launch_id], measured()[launch_id]
    warps = math.prod(entry["grid"]) * -(-math.prod(entry["block"]) // 32)
    for op, key in (("load", "ld"), ("store", "st")):
        predicted = sum(a.exec_weight * a.requests_per_block for a in prediction(launch_id).memory.accesses
                        if a.space == "global" and a.op == op) / -(-math.prod(entry["block"]) // 32)
        assert predicted == pytest.approx(int(row[f"{key}_requests"]) / warps, rel=0.01), op
