"""ncu raw-page CSV parsing and the predicted-versus-measured join, from a CSV captured on the H200
(`kernelscope profile examples/problems/vector_add --raw-csv ...`: naive and float4 kernels, two sizes)."""

from __future__ import annotations

from pathlib import Path

import pytest

pandas = pytest.importorskip("pandas")

from kernelscope.runner.ncu import (METRICS, NcuParseError, derived_measurements, join_static, ncu_command,
                                    parse_ncu_csv, static_predictions)

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "ncu" / "vector_add_naive_vectorized_h200.csv"


@pytest.fixture(scope="module")
def frame():
    return parse_ncu_csv(FIXTURE.read_text())


def test_one_row_per_launch_in_launch_order(frame):
    assert list(frame["ID"]) == [0, 1, 2, 3]
    assert list(frame["Grid Size"]) == ["(17, 1, 1)", "(16384, 1, 1)", "(5, 1, 1)", "(4096, 1, 1)"]
    assert frame["Kernel Name"].iloc[0] == "vector_add"
    assert frame["Kernel Name"].iloc[2].startswith("vector_add_float4")


def test_every_requested_metric_is_a_float(frame):
    for metric in METRICS:
        assert metric in frame, metric
        assert frame[metric].dtype == float


def test_thousands_separators_are_removed():
    text = FIXTURE.read_text()
    assert '"4,194,304"' in text           # ncu writes large counts with separators
    parsed = parse_ncu_csv(text)
    assert parsed["smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"].iloc[1] == 4194304.0


def test_derived_quantities_match_the_kernels_access_patterns(frame):
    derived = derived_measurements(frame)
    large_naive, large_float4 = derived.iloc[1], derived.iloc[3]
    assert large_naive["measured_ld_sectors_per_request"] == pytest.approx(4.0)     # 4-byte loads
    assert large_float4["measured_ld_sectors_per_request"] == pytest.approx(16.0)   # 16-byte loads
    assert large_naive["measured_flops"] == 4194304.0                              # one add per element
    assert large_naive["measured_registers"] > 0


def test_text_without_a_header_is_refused():
    with pytest.raises(NcuParseError):
        parse_ncu_csv("==PROF== nothing profiled\n")


def test_command_profiles_a_batch_with_clocks_untouched():
    command = ncu_command(["python3", "target.py"], kernel_names=["b", "a", "a"], log_file="out.csv")
    assert command[:3] == ["ncu", "--clock-control", "none"]
    assert "regex:^(a|b)$" in command and command[-2:] == ["python3", "target.py"]
    assert command[command.index("--metrics") + 1] == ",".join(METRICS)


# A kernel as the static analyzer reports it (kernelscope.analysis/1 shape), written by hand.
STATIC_NAIVE = {
    "name": "vector_add", "line": 2, "block": [256, 1, 1],
    "accesses": [
        {"space": "global", "op": "load", "pattern": "coalesced", "sectors_per_request": 4, "exec_weight": 1},
        {"space": "global", "op": "load", "pattern": "coalesced", "sectors_per_request": 4, "exec_weight": 1},
        {"space": "global", "op": "store", "pattern": "coalesced", "sectors_per_request": 4, "exec_weight": 1},
    ],
    "occupancy": {"arch": "sm_90", "block_size": 256, "registers": 16, "theoretical_occupancy": 1.0,
                  "limiter": "warps"},
    "intensity": {"flops_per_thread": 1, "global_bytes_per_thread": 12, "arithmetic_intensity": 1 / 12,
                  "bound": "memory"},
}


def test_static_predictions_weight_accesses_by_execution_count():
    kernel = {"accesses": [
        {"space": "global", "op": "load", "sectors_per_request": 4, "exec_weight": 3},
        {"space": "global", "op": "load", "sectors_per_request": 32, "exec_weight": 1},
        {"space": "shared", "op": "load", "bank_ways": 2, "exec_weight": 1},
    ]}
    predicted = static_predictions(kernel, threads=10)
    assert predicted["predicted_ld_sectors_per_request"] == pytest.approx((3 * 4 + 32) / 4)
    assert predicted["predicted_shared_ld_ways"] == 2
    assert predicted["predicted_st_sectors_per_request"] is None


def test_join_puts_predictions_next_to_measurements(frame):
    measured = frame.iloc[:2].copy()
    measured["threads"] = [17 * 256, 16384 * 256]
    joined = join_static(measured, [STATIC_NAIVE, None])
    small, large = joined.iloc[0], joined.iloc[1]
    assert small["predicted_registers"] == 16 and small["measured_registers"] == 16
    assert small["ratio_registers"] == 1.0
    assert small["predicted_ld_sectors_per_request"] == 4.0
    assert small["predicted_flops"] == 17 * 256       # predicted for every launched thread
    assert small["ratio_flops"] == pytest.approx(17 * 256 / 4099)   # 253 threads are past n
    assert pandas.isna(large["predicted_registers"])   # no analysis for this row: measurements kept
    assert large["measured_ld_sectors_per_request"] == pytest.approx(4.0)


def test_join_needs_one_analysis_per_row(frame):
    measured = frame.copy()
    measured["threads"] = 1
    with pytest.raises(ValueError, match="static analyses"):
        join_static(measured, [None])
