"""The static analyses against ncu's counters for every corpus implementation on the H200.

    python benchmarks/corpus_agreement.py [--out profiles/measured/corpus_agreement.csv]

For each implementation at the `large` size (profiles/measured/corpus_h200.csv, written by
benchmarks/gpu/measure_corpus.py) this analyses the kernel with the launch and scalar values the runner
used and sets side by side:
- global sectors per request, loads and stores (l1tex__t_sectors / l1tex__t_requests, pipe lsu);
- floating-point operations of the launch (fadd + fmul + 2 ffma, fp32 and fp64, as docs/json-schema.md counts);
- theoretical occupancy (sm__maximum_warps_per_active_cycle_pct), from the registers ptxas reports here.
Prints the share of implementations where each prediction agrees (sectors: within 25% or one sector;
FLOPs: within 10%; occupancy: within one percentage point) and writes one row per implementation.
tests/test_corpus_measured_agreement.py asserts on the same rows.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
MEASURED = ROOT / "profiles" / "measured" / "corpus_h200.csv"
SIZE = "large"

NCU = {
    "ld_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "ld_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "st_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "st_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "occupancy_pct": "sm__maximum_warps_per_active_cycle_pct",
}
FLOP_COUNTERS = {  # counter -> FLOPs per executed thread instruction
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": 1,
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum": 1,
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 2,
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum": 1,
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum": 1,
    "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum": 2,
}


def kernel_bindings(spec, kernel, launch, size: str) -> dict:
    """Scalar values the runner passes, under the kernel's own parameter names (by position), plus the
    size variables under the spec's names for kernels that read them through macros."""
    variables = spec.variables(size)
    bindings = {k: int(v) for k, v in variables.items() if float(v).is_integer()}
    for param, arg in zip(kernel.params, launch.args):
        value = variables.get(arg)
        if not param.is_pointer and value is not None and float(value).is_integer():
            bindings[param.name] = int(value)
    return bindings


def analyse(spec, implementation):
    """(KernelResult, ConcreteLaunch) of one implementation at SIZE, analysed as the runner launches it."""
    from kernelscope.analyze import analyze_path
    from kernelscope.frontend import parse_file
    from kernelscope.runner.plan import single_launch

    launch = single_launch(spec, implementation, SIZE)   # the launch its file's plan (or [launch]) gives
    if launch is None:                                   # several kernels: ncu's counters sum them
        return None, None
    path = spec.resolve(implementation.file)
    # the parse alone names the kernel's parameters, which the bindings need before the analysis
    kernels = [k for k in parse_file(path.read_text(), str(path)).kernels if k.name == launch.kernel]
    if not kernels:
        return None, launch
    bindings = kernel_bindings(spec, kernels[0], launch, SIZE)
    result = analyze_path(path, block=launch.block, grid=launch.grid, dynamic_smem=launch.dynamic_smem,
                          bindings=bindings, registers="auto")
    return next(k for k in result.kernels if k.kernel.name == kernels[0].name), launch


def measured_rows() -> pd.DataFrame:
    table = pd.read_csv(MEASURED)
    table = table[(table["size"] == SIZE) & (table["correct"].astype(str) == "True")]
    return table.dropna(subset=[NCU["ld_requests"]])


def agreement_table() -> pd.DataFrame:
    from kernelscope.runner import load_spec

    specs = {s.name: s for s in (load_spec(p) for p in sorted((ROOT / "corpus").glob("*/spec.toml")))}
    records = []
    for _, row in measured_rows().iterrows():
        spec = specs[row["problem"]]
        implementation = next(i for i in spec.implementations if i.file == row["implementation"])
        result, launch = analyse(spec, implementation)
        record = {"problem": row["problem"], "implementation": row["implementation"],
                  "strategy": implementation.strategy}
        if result is None:
            records.append(record)
            continue
        threads = math.prod(launch.block) * math.prod(launch.grid)
        for op, key in (("load", "ld"), ("store", "st")):
            requests = row[NCU[f"{key}_requests"]]
            record[f"{key}_measured"] = row[NCU[f"{key}_sectors"]] / requests if requests else None
            record[f"{key}_predicted"] = result.memory.mean_sectors_per_request(op)
        per_thread = result.intensity.flops_per_thread
        record["flops_measured"] = sum(row[c] * w for c, w in FLOP_COUNTERS.items())
        record["flops_predicted"] = per_thread * threads if per_thread is not None else None
        record["occupancy_measured"] = row[NCU["occupancy_pct"]]
        record["occupancy_predicted"] = 100 * result.occupancy.theoretical_occupancy
        records.append(record)
    return pd.DataFrame(records)


def sectors_agree(predicted, measured) -> bool:
    return predicted is not None and abs(predicted - measured) <= max(1.0, 0.25 * measured)


def summarize(table: pd.DataFrame) -> dict:
    """{check: (agreeing, compared)} over the rows where both sides exist."""
    summary = {}
    for key in ("ld", "st"):
        rows = table.dropna(subset=[f"{key}_measured"])
        rows = rows[rows[f"{key}_measured"] > 0]
        ok = sum(sectors_agree(p if pd.notna(p) else None, m)
                 for p, m in zip(rows[f"{key}_predicted"], rows[f"{key}_measured"]))
        summary[f"{key}_sectors_per_request"] = (ok, len(rows))
    rows = table[table["flops_measured"] > 0]
    ok = sum(pd.notna(p) and abs(p - m) <= 0.1 * m for p, m in zip(rows["flops_predicted"], rows["flops_measured"]))
    summary["flops"] = (ok, len(rows))
    rows = table.dropna(subset=["occupancy_measured"])
    ok = sum(abs(p - m) <= 1.0 for p, m in zip(rows["occupancy_predicted"], rows["occupancy_measured"]))
    summary["theoretical_occupancy"] = (ok, len(rows))
    return summary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write the per-implementation table here (CSV)")
    args = parser.parse_args(argv)
    table = agreement_table()
    for check, (ok, total) in summarize(table).items():
        print(f"{check}: {ok}/{total} agree ({ok / max(total, 1):.1%})")
    if args.out:
        table.to_csv(args.out, index=False, float_format="%.6g")
    return 0


if __name__ == "__main__":
    sys.exit(main())
