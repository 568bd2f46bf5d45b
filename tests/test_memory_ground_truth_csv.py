"""Integrity of the GPU ground truth for the memory and intensity analyses.

The kernels and their launches live in tests/kernels/memory/manifest.toml; the counters measured on
the H200 under Nsight Compute live in profiles/measured/memory_h200.csv (written by
benchmarks/gpu/measure_memory.py, raw ncu output beside it in profiles/measured/raw/). These tests
need no GPU: they check that manifest, sources and CSV agree, and that the measured counters obey
rules of the hardware that hold whatever the static analyzer predicts.
"""
from __future__ import annotations

import csv
import importlib.util
import math
import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
KERNEL_DIR = ROOT / "tests" / "kernels" / "memory"
TIDY_CSV = ROOT / "profiles" / "measured" / "memory_h200.csv"
RAW_CSV = ROOT / "profiles" / "measured" / "raw" / "memory_h200_ncu.csv"


def _load_script():
    spec = importlib.util.spec_from_file_location("measure_memory", ROOT / "benchmarks" / "gpu" / "measure_memory.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


measure_memory = _load_script()
KERNELS = measure_memory.load_manifest()
BY_NAME = {k["name"]: k for k in KERNELS}


def _kernel_signatures() -> dict[str, tuple[str, str]]:
    """name -> (file, parameter list) for every extern "C" kernel in the folder."""
    found = {}
    pattern = re.compile(r'extern\s+"C"\s+__global__\s+void\s+(\w+)\s*\(([^)]*)\)')
    for path in sorted(KERNEL_DIR.glob("*.cu")):
        for name, params in pattern.findall(path.read_text()):
            assert name not in found, f"{name} defined twice"
            found[name] = (path.name, params)
    return found


@pytest.fixture(scope="module")
def measured() -> dict[str, dict]:
    with open(TIDY_CSV, newline="") as handle:
        rows = list(csv.DictReader(handle))
    return {row["kernel"]: row for row in rows}


def _count(row: dict, column: str) -> int:
    return int(row[column])


# --- manifest and sources ------------------------------------------------------------------------

def test_manifest_lists_at_least_forty_kernels_with_unique_names():
    assert len(KERNELS) >= 40
    assert len(BY_NAME) == len(KERNELS)


def test_every_source_kernel_is_in_the_manifest_and_in_the_file_it_names():
    signatures = _kernel_signatures()
    assert set(signatures) == set(BY_NAME)
    for name, (file, _) in signatures.items():
        assert BY_NAME[name]["file"] == file


def test_manifest_arguments_match_the_kernel_parameter_lists():
    for name, (_, params) in _kernel_signatures().items():
        declared = [p.strip().split()[-1].lstrip("*") for p in params.split(",")]
        assert declared == [a["name"] for a in BY_NAME[name]["args"]], name


def test_bindings_are_exactly_the_scalar_arguments():
    for kernel in KERNELS:
        scalars = {a["name"]: a["value"] for a in kernel["args"] if "scalar" in a}
        assert kernel["bindings"] == scalars, kernel["name"]


def test_manifest_covers_global_shared_atomic_and_each_fp_precision():
    expected_keys = set()
    for kernel in KERNELS:
        expected_keys.update(kernel.get("expect", {}))
    for key in ("ld_sectors_per_request", "st_sectors_per_request", "red_sectors_per_request",
                "atom_sectors_per_request", "shared_ld_wavefronts_per_request", "ffma", "dfma", "hfma", "hadd"):
        assert key in expected_keys


def test_manifest_rejects_a_vector_permutation(tmp_path):
    bad = tmp_path / "manifest.toml"
    (tmp_path / "k.cu").write_text('extern "C" __global__ void k(float4* a) {}\n')
    bad.write_text('[[kernel]]\nname = "k"\nfile = "k.cu"\nblock = [32, 1, 1]\ngrid = [1, 1, 1]\n'
                   'args = [{ name = "a", array = "float4", count = 4, fill = "permutation" }]\nbindings = {}\n')
    with pytest.raises(measure_memory.ManifestError):
        measure_memory.load_manifest(bad)


# --- argument building (the CPU half of the launcher) ------------------------------------------

def test_arguments_have_the_manifest_types_counts_and_fills():
    rng = np.random.default_rng(0)
    for name in ("ld_gather_identity", "st_scatter_permutation", "ld_float4_coalesced", "ld_int64_index_stride2",
                 "atom_histogram_random", "flop_half2_fma", "flop_divide"):
        kernel = BY_NAME[name]
        values = measure_memory.build_arguments(kernel, np, rng)
        assert len(values) == len(kernel["args"])
        for spec, value in zip(kernel["args"], values):
            if "scalar" in spec:
                assert value.dtype == np.dtype(spec["scalar"]) and value == spec["value"]
                continue
            dtype, shape = measure_memory.array_layout(spec)
            assert value.dtype == np.dtype(dtype) and value.shape == shape
            fill = spec.get("fill", "zeros")
            if fill == "identity":
                assert np.array_equal(value, np.arange(spec["count"]))
            elif fill == "permutation":
                assert np.array_equal(np.sort(value), np.arange(spec["count"]))
            elif fill == "random":  # rounding to float16 may reach the upper bound
                assert value.min() >= spec.get("low", 0) and value.max() <= spec.get("high", 1.0)
            else:
                assert not value.any()


def test_ncu_numbers_with_thousands_separators_parse():
    assert measure_memory.parse_number("1,048,576") == 1048576
    assert measure_memory.parse_number("4.5") == 4.5
    assert measure_memory.parse_number("n/a") is None


# --- the measured CSV ------------------------------------------------------------------------------

def test_every_manifest_kernel_has_one_measured_row_with_its_launch(measured):
    assert set(measured) == set(BY_NAME)
    for name, row in measured.items():
        kernel = BY_NAME[name]
        assert row["file"] == kernel["file"]
        assert row["block"] == "x".join(map(str, kernel["block"]))
        assert row["grid"] == "x".join(map(str, kernel["grid"]))
        assert int(row["threads"]) == math.prod(kernel["block"]) * math.prod(kernel["grid"])


def test_csv_has_the_documented_columns(measured):
    row = next(iter(measured.values()))
    assert list(row) == measure_memory.TIDY_COLUMNS


def test_counts_are_non_negative_integers(measured):
    count_columns = [c for c in measure_memory.METRICS if c != "duration_ns"]
    for name, row in measured.items():
        for column in count_columns:
            assert re.fullmatch(r"\d+", row[column]), f"{name}.{column} = {row[column]!r}"
        assert float(row["duration_ns"]) > 0


def test_a_request_touches_between_one_and_thirty_two_sectors(measured):
    for name, row in measured.items():
        for op in ("ld", "st", "atom", "red"):
            sectors, requests = _count(row, f"{op}_sectors"), _count(row, f"{op}_requests")
            assert requests <= sectors <= 32 * requests, f"{name} {op}: {sectors} sectors, {requests} requests"


def test_shared_wavefronts_appear_exactly_when_shared_instructions_do(measured):
    # Not wavefronts >= instructions: a guarded shared access is predicated, and a warp whose lanes
    # are all switched off still issues it without any wavefront (see smem_reduce_sequential).
    for name, row in measured.items():
        for op in ("ld", "st"):
            wavefronts, requests = _count(row, f"shared_{op}_wavefronts"), _count(row, f"shared_{op}_requests")
            assert (wavefronts == 0) == (requests == 0), f"{name} shared {op}"
            assert _count(row, f"shared_{op}_bank_conflicts") <= wavefronts, f"{name} shared {op}"


def test_derived_columns_follow_from_the_counts(measured):
    for name, row in measured.items():
        for column, (num, den) in measure_memory.RATIOS.items():
            if _count(row, den):
                assert float(row[column]) == pytest.approx(_count(row, num) / _count(row, den), rel=1e-5)
            else:
                assert row[column] == ""
        flops = _count(row, "fadd") + _count(row, "fmul") + 2 * _count(row, "ffma")
        assert _count(row, "flops_fp32") == flops, name


def test_kernels_without_global_stores_or_loads_show_none(measured):
    for name, kernel in BY_NAME.items():
        row = measured[name]
        if kernel["file"] == "global_stores.cu" or name == "st_float2_coalesced":
            assert _count(row, "ld_requests") == 0, name
        if not name.startswith(("smem_", "xpose_tiled", "flop_matmul_tiled")):
            assert _count(row, "shared_ld_requests") == _count(row, "shared_st_requests") == 0, name


@pytest.mark.parametrize("name", sorted(k["name"] for k in KERNELS if k.get("expect")))
def test_measured_counters_match_the_hand_derived_expectations(measured, name):
    row = measured[name]
    for key, expected in BY_NAME[name]["expect"].items():
        if key.startswith("shared_"):
            # Shared wavefronts carry a few percent of extra wavefronts from arbitration with the
            # L1 traffic sharing the data banks; 10% still tells 1-way from 2-way.
            assert float(row[key]) == pytest.approx(expected, rel=0.1), f"{name}: {key}"
        elif key.endswith("_per_request"):
            assert float(row[key]) == pytest.approx(expected, rel=1e-3), f"{name}: {key}"
        else:
            assert _count(row, key) == expected, f"{name}: {key}"


def test_coalesced_float_copy_reads_four_sectors_per_request_and_its_bytes_from_dram(measured):
    row = measured["ld_f32_coalesced"]
    n = BY_NAME["ld_f32_coalesced"]["bindings"]["n"]
    assert _count(row, "ld_sectors") == 4 * _count(row, "ld_requests") == 4 * n // 32
    assert 0.9 <= _count(row, "dram_read_bytes") / (4 * n) <= 1.2


def test_random_indices_scatter_the_gather_and_the_scatter(measured):
    gather = measured["ld_gather_random"]
    # Half the loads are the coalesced idx[i] (4 sectors), half hit ~32 distinct sectors.
    assert 16 < float(gather["ld_sectors_per_request"]) <= 18
    assert float(measured["st_scatter_permutation"]["st_sectors_per_request"]) > 30
    identity = measured["ld_gather_identity"]
    assert float(identity["ld_sectors_per_request"]) == 4


def test_same_address_float_atomics_cost_a_sector_per_lane_unless_the_compiler_aggregates(measured):
    threads = BY_NAME["atom_add_single_float"]["bindings"]["n"]
    single_float, single_int = measured["atom_add_single_float"], measured["atom_inc_single_int"]
    assert _count(single_float, "red_requests") == threads // 32
    assert _count(single_float, "red_sectors") == threads
    # atomicAdd(counter, 1) becomes one RED per warp of the popcount of active lanes.
    assert _count(single_int, "red_requests") == _count(single_int, "red_sectors") == threads // 32


def test_constant_moves_written_as_hfma2_show_up_as_hfma(measured):
    # st_float4_coalesced does no arithmetic, but its constants 1.0f/2.0f/3.0f are materialised
    # with HFMA2.MMA, which ncu's op_hfma counter includes.
    row = measured["st_float4_coalesced"]
    assert _count(row, "hfma") > 0 and _count(row, "hadd") == _count(row, "hmul") == 0


def test_converter_reproduces_the_committed_csv_from_the_raw_ncu_output(tmp_path):
    rebuilt = tmp_path / "memory.csv"
    missing = measure_memory.convert(RAW_CSV, rebuilt, KERNELS)
    assert missing == []
    assert rebuilt.read_text() == TIDY_CSV.read_text()
