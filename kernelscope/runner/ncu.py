"""Nsight Compute: the command line for a batch, its CSV parsed into pandas, and the join with the
static analysis of the same kernels (predicted next to measured).

ncu's `--csv --page raw --print-units base` output is one header row, one units row, then one row per
profiled launch; numbers carry thousands separators. Everything here works on text, so the parser
and the join are tested on the CPU with a CSV captured on the H200.
"""

from __future__ import annotations

import csv
import io
import math

# The counters the static predictions are checked against, all verified on the H200.
METRICS = (
    "gpu__time_duration.sum",
    "launch__registers_per_thread",
    "sm__maximum_warps_per_active_cycle_pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "smsp__average_thread_inst_executed_per_inst_executed.ratio",
)
IDENTITY_COLUMNS = ("ID", "Process ID", "Kernel Name", "Block Size", "Grid Size", "Device", "CC")


class NcuParseError(ValueError):
    """The text is not ncu raw-page CSV."""


def ncu_command(target: list[str], *, kernel_names=(), metrics=METRICS, ncu: str = "ncu",
                log_file: str | None = None) -> list[str]:
    """One ncu process for a whole batch: hardware clocks left alone, raw counters, base units."""
    command = [ncu, "--clock-control", "none", "--csv", "--page", "raw", "--print-units", "base",
               "--metrics", ",".join(metrics)]
    if kernel_names:
        # the runner knows the exact symbols it loads, so match on mangled names
        command += ["--kernel-name-base", "mangled",
                    "--kernel-name", "regex:^(" + "|".join(sorted(set(kernel_names))) + ")$"]
    if log_file:
        command += ["--log-file", log_file]
    return command + list(target)


def parse_ncu_csv(text: str):
    """A DataFrame with one row per profiled launch: identity columns and every metric as a float."""
    import pandas

    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID",')), None)
    if start is None:
        raise NcuParseError("no ncu CSV header (a line starting with \"ID\") found")
    rows = list(csv.reader(io.StringIO("\n".join(lines[start:]))))
    header, rest = rows[0], rows[1:]
    if rest and rest[0] and rest[0][0] == "":      # the units row
        rest = rest[1:]
    records = []
    for row in rest:
        if len(row) != len(header):
            continue                                   # program output interleaved with the CSV
        record = {}
        for name, value in zip(header, row):
            record[name] = value if name in IDENTITY_COLUMNS or not _is_metric(name) else _number(value)
        record["ID"] = int(record["ID"])
        records.append(record)
    frame = pandas.DataFrame.from_records(records, columns=header)
    return frame.sort_values("ID").reset_index(drop=True)


def _is_metric(name: str) -> bool:
    return "__" in name


def _number(text: str) -> float:
    text = text.strip().replace(",", "")
    if text in ("", "n/a", "N/A"):
        return math.nan
    try:
        return float(text)
    except ValueError:
        return math.nan


def derived_measurements(frame):
    """Measured quantities in the units of the static analysis, one row per launch."""
    import pandas

    def col(name):
        return frame[name] if name in frame else pandas.Series(math.nan, index=frame.index)

    def ratio(a, b):
        return a / b.where(b > 0)

    out = pandas.DataFrame(index=frame.index)
    out["measured_time_ns"] = col("gpu__time_duration.sum")
    out["measured_registers"] = col("launch__registers_per_thread")
    out["measured_theoretical_occupancy"] = col("sm__maximum_warps_per_active_cycle_pct") / 100.0
    out["measured_achieved_occupancy"] = col("sm__warps_active.avg.pct_of_peak_sustained_active") / 100.0
    out["measured_ld_sectors_per_request"] = ratio(col("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
                                                   col("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"))
    out["measured_st_sectors_per_request"] = ratio(col("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
                                                   col("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"))
    for op in ("ld", "st"):
        wavefronts = col(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum")
        conflicts = col(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum")
        out[f"measured_shared_{op}_ways"] = ratio(wavefronts, wavefronts - conflicts)
    flops = sum(col(f"smsp__sass_thread_inst_executed_op_{p}{k}_pred_on.sum") * (2 if k == "fma" else 1)
                for p in ("f", "d") for k in ("add", "mul", "fma"))
    out["measured_flops"] = flops
    out["measured_dram_bytes"] = col("dram__bytes_read.sum") + col("dram__bytes_write.sum")
    out["measured_arithmetic_intensity"] = ratio(flops, out["measured_dram_bytes"])
    out["measured_simt_efficiency"] = col("smsp__average_thread_inst_executed_per_inst_executed.ratio") / 32.0
    return out


def static_predictions(kernel: dict, threads: int) -> dict:
    """Predicted quantities from one kernel of the analyzer's JSON (kernelscope.analysis/1 shape)."""
    occupancy = kernel.get("occupancy") or {}
    intensity = kernel.get("intensity") or {}
    accesses = kernel.get("accesses") or []
    flops_per_thread = _float(intensity.get("flops_per_thread"))
    bytes_per_thread = _float(intensity.get("global_bytes_per_thread"))
    occupancy_value = _float(occupancy.get("theoretical_occupancy"))
    if occupancy_value is not None and occupancy_value > 1.0:    # given as a percentage
        occupancy_value /= 100.0
    return {
        "predicted_registers": _float(occupancy.get("registers")),
        "predicted_theoretical_occupancy": occupancy_value,
        "predicted_ld_sectors_per_request": _weighted(accesses, "global", ("load",), "sectors_per_request"),
        "predicted_st_sectors_per_request": _weighted(accesses, "global", ("store",), "sectors_per_request"),
        "predicted_shared_ld_ways": _weighted(accesses, "shared", ("load",), "bank_ways"),
        "predicted_shared_st_ways": _weighted(accesses, "shared", ("store",), "bank_ways"),
        "predicted_flops": flops_per_thread * threads if flops_per_thread is not None else None,
        "predicted_dram_bytes": bytes_per_thread * threads if bytes_per_thread is not None else None,
        "predicted_arithmetic_intensity": _float(intensity.get("arithmetic_intensity")),
        "predicted_bound": intensity.get("bound"),
        "predicted_limiter": occupancy.get("limiter"),
    }


def join_static(measured, static_kernels: list):
    """Put predictions next to measurements, row by row.

    `measured` is `parse_ncu_csv`'s frame with a `threads` column; `static_kernels` holds, for each
    row in order, the analyzer's JSON of that kernel (or None where there is no analysis).
    """
    import pandas

    if len(static_kernels) != len(measured):
        raise ValueError(f"{len(static_kernels)} static analyses for {len(measured)} measured launches")
    derived = derived_measurements(measured)
    predicted = pandas.DataFrame.from_records(
        [static_predictions(kernel or {}, int(threads)) for kernel, threads in
         zip(static_kernels, measured["threads"])], index=measured.index)
    joined = pandas.concat([measured, derived, predicted], axis=1)
    for quantity in ("registers", "theoretical_occupancy", "ld_sectors_per_request", "st_sectors_per_request",
                     "shared_ld_ways", "shared_st_ways", "flops", "dram_bytes", "arithmetic_intensity"):
        p = pandas.to_numeric(joined[f"predicted_{quantity}"], errors="coerce")
        m = pandas.to_numeric(joined[f"measured_{quantity}"], errors="coerce")
        joined[f"ratio_{quantity}"] = p / m.where(m != 0)
    return joined


def _weighted(accesses, space, ops, key):
    """Mean of `key` over matching accesses, weighted by how often each executes."""
    total = weight_sum = 0.0
    for access in accesses:
        if access.get("space") != space or access.get("op") not in ops:
            continue
        value, weight = _float(access.get(key)), _float(access.get("exec_weight"))
        if value is None:
            continue
        weight = 1.0 if weight is None else weight
        total += value * weight
        weight_sum += weight
    return total / weight_sum if weight_sum else None


def _float(value):
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None
