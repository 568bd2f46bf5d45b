"""Feature extraction for reward and ranking models: one row per kernel, numeric columns from every
analysis. The schema is an API: columns are declared once in `FEATURES` (name, kind, meaning), the
documentation in docs/features.md is generated from it, and every table carries `schema_version`.

    from kernelscope.features import extract, extract_source
    table = extract(["corpus/"])                      # files and directories
    row = extract_source(candidate_text, block=(256, 1, 1))
"""

from __future__ import annotations

import math
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

SCHEMA_VERSION = "kernelscope.features/1"

IDENTITY_COLUMNS = ("schema_version", "file", "kernel", "line", "error")


@dataclass(frozen=True)
class Feature:
    name: str
    kind: str          # count | ratio | real | flag | one-hot
    meaning: str


FEATURES: tuple[Feature, ...] = (
    # memory: global
    Feature("global_accesses", "count", "global loads, stores and atomics in the source (helpers inlined)"),
    Feature("global_loads", "count", "global load sites"),
    Feature("global_stores", "count", "global store sites"),
    Feature("atomics", "count", "atomic operation sites on global or shared memory"),
    Feature("sectors_per_request_mean", "real", "32-byte sectors per warp request, mean over global loads and stores weighted by executions"),
    Feature("sectors_per_request_max", "real", "worst global access in sectors per warp request"),
    Feature("sector_efficiency", "ratio", "ideal / predicted sectors over all global traffic (1 = perfectly coalesced)"),
    Feature("share_coalesced", "ratio", "share of global accesses that are coalesced"),
    Feature("share_strided", "ratio", "share of global accesses that are strided"),
    Feature("share_indirect", "ratio", "share of global accesses with data-dependent addresses"),
    Feature("share_broadcast", "ratio", "share of global accesses where a warp reads one address"),
    Feature("vector_width_max", "count", "widest global access in bytes (16 = float4/int4)"),
    Feature("share_vector_accesses", "ratio", "share of global accesses of 8 bytes or more"),
    Feature("cached_loads", "count", "loads through __ldg and the other cache-hint intrinsics"),
    # memory: shared
    Feature("shared_accesses", "count", "shared-memory access sites"),
    Feature("bank_ways_mean", "real", "shared-memory bank-conflict degree, mean weighted by executions (1 = none)"),
    Feature("bank_ways_max", "real", "worst shared access's bank-conflict degree"),
    Feature("shared_arrays", "count", "__shared__ arrays declared"),
    Feature("uses_dynamic_shared", "flag", "declares extern __shared__ memory"),
    # divergence
    Feature("divergent_branches", "count", "branches whose condition splits warps"),
    Feature("divergent_branches_in_loops", "count", "divergent branches inside loops"),
    # occupancy and resources
    Feature("block_threads", "count", "threads per block assumed by the analysis"),
    Feature("registers", "count", "registers per thread (ptxas, or the estimate)"),
    Feature("registers_from_ptxas", "flag", "registers come from ptxas rather than the estimate"),
    Feature("spill_bytes", "count", "bytes spilled to local memory per thread (loads + stores, ptxas)"),
    Feature("static_shared_bytes", "count", "static shared memory per block"),
    Feature("theoretical_occupancy", "ratio", "active warps per SM over the maximum"),
    Feature("active_blocks_per_sm", "count", "resident blocks per SM"),
    Feature("limiter_registers", "one-hot", "occupancy limited by registers"),
    Feature("limiter_shared_memory", "one-hot", "occupancy limited by shared memory"),
    Feature("limiter_warps", "one-hot", "occupancy limited by the warp (thread) limit"),
    Feature("limiter_blocks", "one-hot", "occupancy limited by the block-count limit"),
    Feature("limiter_other", "one-hot", "occupancy limited by barriers or the block size"),
    # intensity
    Feature("flops_per_thread", "real", "floating-point operations per thread (fma = 2), all precisions"),
    Feature("global_bytes_per_thread", "real", "global bytes requested per thread"),
    Feature("shared_bytes_per_thread", "real", "shared-memory bytes moved per thread"),
    Feature("arithmetic_intensity", "real", "FLOPs per global byte"),
    Feature("log_arithmetic_intensity", "real", "log10 of arithmetic intensity (clipped at 1e-3)"),
    Feature("memory_bound", "flag", "below the ridge point of the architecture's reference GPU"),
    Feature("special_ops_per_thread", "real", "divisions, square roots and transcendental calls per thread"),
    Feature("share_fp64_flops", "ratio", "share of FLOPs in double precision"),
    Feature("share_fp16_flops", "ratio", "share of FLOPs in half or bfloat16 precision"),
    # synchronization
    Feature("barriers", "count", "__syncthreads and equivalent barrier sites"),
    Feature("divergent_barriers", "count", "barriers some threads of a block may skip"),
    Feature("shared_races", "count", "shared-memory races found within barrier intervals"),
    Feature("atomics_in_loops", "count", "atomics executed inside loops"),
    Feature("uses_warp_shuffle", "flag", "uses __shfl*_sync, ballots or cooperative-groups shuffles"),
    # structure
    Feature("loops", "count", "loops"),
    Feature("max_loop_depth", "count", "deepest loop nesting"),
    Feature("unrolled_loops", "count", "loops under #pragma unroll"),
    Feature("thread_dependent_loops", "count", "loops whose trip count differs between threads"),
    Feature("pointer_params", "count", "pointer parameters"),
    Feature("share_restrict_pointers", "ratio", "share of pointer parameters marked __restrict__"),
    Feature("share_const_pointers", "ratio", "share of pointer parameters to const data"),
    Feature("has_launch_bounds", "flag", "declares __launch_bounds__"),
    Feature("is_template", "flag", "is a template kernel"),
    Feature("uses_cooperative_groups", "flag", "uses cooperative groups"),
    Feature("lint_errors", "count", "error-severity findings for this kernel"),
    Feature("lint_warnings", "count", "warning-severity findings for this kernel"),
)

FEATURE_NAMES = tuple(f.name for f in FEATURES)
COLUMNS = IDENTITY_COLUMNS + FEATURE_NAMES


def kernel_features(kernel_result) -> dict:
    """The feature values of one analysed kernel (a `kernelscope.analyze.KernelResult`)."""
    kernel = kernel_result.kernel
    accesses = kernel_result.memory.accesses
    values: dict = {}
    _global_features(values, [a for a in accesses if a.space == "global"], kernel)
    _shared_features(values, [a for a in accesses if a.space == "shared"], kernel)
    branches = kernel_result.memory.branches
    values["divergent_branches"] = sum(1 for b in branches if b.divergent and b.kind != "return")
    values["divergent_branches_in_loops"] = sum(1 for b in branches if b.divergent and b.in_loop and b.kind != "return")
    values["atomics"] = sum(1 for a in accesses if a.op == "atomic")
    _occupancy_features(values, kernel_result)
    _intensity_features(values, kernel_result.intensity)
    _sync_features(values, kernel_result, kernel)
    _structure_features(values, kernel_result, kernel)
    return {name: _number(values.get(name)) for name in FEATURE_NAMES}


def _weight(access) -> float:
    return access.exec_weight if isinstance(access.exec_weight, (int, float)) else 1.0


def _global_features(values: dict, accesses: list, kernel) -> None:
    values["global_accesses"] = len(accesses)
    values["global_loads"] = sum(1 for a in accesses if a.op == "load")
    values["global_stores"] = sum(1 for a in accesses if a.op == "store")
    moving = [a for a in accesses if a.op != "atomic" and a.sectors_per_request is not None]
    total_weight = sum(_weight(a) for a in moving)
    if moving and total_weight:
        values["sectors_per_request_mean"] = sum(a.sectors_per_request * _weight(a) for a in moving) / total_weight
        values["sectors_per_request_max"] = max(a.sectors_per_request for a in moving)
        ideal = sum((a.ideal_sectors or 0) * _weight(a) for a in moving)
        actual = sum(a.sectors_per_request * _weight(a) for a in moving)
        values["sector_efficiency"] = min(1.0, ideal / actual) if actual else None
    count = len(accesses) or None
    for pattern in ("coalesced", "strided", "indirect", "broadcast"):
        values[f"share_{pattern}"] = (sum(1 for a in accesses if a.pattern == pattern) / count) if count else 0.0
    values["vector_width_max"] = max((a.elem_bytes for a in accesses), default=0)
    values["share_vector_accesses"] = (sum(1 for a in accesses if a.elem_bytes >= 8) / count) if count else 0.0
    values["cached_loads"] = sum(1 for a in kernel.accesses if a.cached)


def _shared_features(values: dict, accesses: list, kernel) -> None:
    values["shared_accesses"] = len(accesses)
    rated = [a for a in accesses if a.bank_ways is not None]
    total = sum(_weight(a) for a in rated)
    values["bank_ways_mean"] = sum(a.bank_ways * _weight(a) for a in rated) / total if rated and total else 1.0
    values["bank_ways_max"] = max((a.bank_ways for a in rated), default=1.0)
    values["shared_arrays"] = len(kernel.shared_arrays)
    values["uses_dynamic_shared"] = any(s.dynamic for s in kernel.shared_arrays)


def _occupancy_features(values: dict, result) -> None:
    values["block_threads"] = result.block.threads
    usage = result.resources
    if usage is not None:
        values["registers"] = usage.registers
        values["registers_from_ptxas"] = usage.source == "ptxas"
        values["spill_bytes"] = (usage.spill_stores or 0) + (usage.spill_loads or 0)
    occupancy = result.occupancy
    values["static_shared_bytes"] = occupancy.static_shared_bytes if occupancy is not None else \
        sum(s.static_bytes for s in result.kernel.shared_arrays)
    if occupancy is None:
        return
    values["theoretical_occupancy"] = occupancy.theoretical_occupancy
    values["active_blocks_per_sm"] = occupancy.active_blocks_per_sm
    limiter = occupancy.limiter
    for name in ("registers", "shared_memory", "warps", "blocks"):
        values[f"limiter_{name}"] = limiter == name
    values["limiter_other"] = limiter not in ("registers", "shared_memory", "warps", "blocks")


def _intensity_features(values: dict, intensity) -> None:
    if intensity is None:
        return
    values["flops_per_thread"] = intensity.flops_per_thread
    values["global_bytes_per_thread"] = intensity.global_bytes_per_thread
    values["shared_bytes_per_thread"] = intensity.shared_bytes_per_thread
    ai = intensity.arithmetic_intensity
    if ai is not None and math.isfinite(ai):
        values["arithmetic_intensity"] = ai
        values["log_arithmetic_intensity"] = math.log10(max(ai, 1e-3))
    values["memory_bound"] = intensity.bound == "memory" if intensity.bound else None
    values["special_ops_per_thread"] = intensity.special_ops_per_thread
    total = sum(intensity.flops_by_precision.values())
    if total:
        values["share_fp64_flops"] = intensity.flops_by_precision.get("fp64", 0) / total
        values["share_fp16_flops"] = (intensity.flops_by_precision.get("fp16", 0) +
                                      intensity.flops_by_precision.get("bf16", 0)) / total
    else:
        values["share_fp64_flops"] = values["share_fp16_flops"] = 0.0


def _sync_features(values: dict, result, kernel) -> None:
    values["barriers"] = sum(1 for b in kernel.barriers if b.kind != "syncwarp")
    values["atomics_in_loops"] = sum(1 for a in kernel.accesses if a.op == "atomic" and a.context.loops)
    values["uses_warp_shuffle"] = kernel.uses_shuffle
    if result.sync is not None:
        data = result.sync.to_json()
        values["divergent_barriers"] = len(data.get("divergent_barriers") or [])
        values["shared_races"] = len(data.get("shared_races") or [])


def _structure_features(values: dict, result, kernel) -> None:
    values["loops"] = len(kernel.loops)
    values["max_loop_depth"] = max((loop.depth for loop in kernel.loops), default=0)
    values["unrolled_loops"] = sum(1 for loop in kernel.loops if loop.unrolled is not None)
    values["thread_dependent_loops"] = sum(1 for loop in kernel.loops if loop.thread_dependent)
    pointers = [p for p in kernel.params if p.is_pointer]
    values["pointer_params"] = len(pointers)
    values["share_restrict_pointers"] = sum(p.is_restrict for p in pointers) / len(pointers) if pointers else 0.0
    values["share_const_pointers"] = sum(p.is_const for p in pointers) / len(pointers) if pointers else 0.0
    values["has_launch_bounds"] = bool(kernel.launch_bounds)
    values["is_template"] = bool(kernel.template_params)
    values["uses_cooperative_groups"] = kernel.uses_cooperative_groups
    values["lint_errors"] = sum(1 for d in result.diagnostics if d.severity == "error")
    values["lint_warnings"] = sum(1 for d in result.diagnostics if d.severity == "warning")


def _number(value) -> float:
    if value is None:
        return float("nan")
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    value = float(value)
    return value if math.isfinite(value) else float("nan")


# -- tables ---------------------------------------------------------------------------------------

def rows_for_source(text: str, path: str = "<string>", **options) -> list[dict]:
    """Feature rows of every kernel in `text`; analysis options as for `analyze_source`."""
    from kernelscope.analyze import analyze_source

    result = analyze_source(text, path, **options)
    return [_row(path, k.kernel.name, k.kernel.line, None, kernel_features(k)) for k in result.kernels]


def rows_for_file(path: str, options: dict) -> list[dict]:
    """Rows for one file; an unreadable or unanalysable file gives one row with `error` set."""
    from kernelscope.analyze import analyze_path
    from kernelscope.errors import KernelscopeError

    try:
        result = analyze_path(path, **options)
    except (KernelscopeError, RecursionError, ValueError, OSError) as exc:
        return [_row(str(path), None, None, f"{type(exc).__name__}: {exc}", {})]
    if not result.kernels:
        return [_row(str(path), None, None, "no kernels found", {})]
    return [_row(str(path), k.kernel.name, k.kernel.line, None, kernel_features(k)) for k in result.kernels]


def _row(path: str, kernel, line, error, features: dict) -> dict:
    row = {"schema_version": SCHEMA_VERSION, "file": path, "kernel": kernel, "line": line, "error": error}
    row.update({name: features.get(name, float("nan")) for name in FEATURE_NAMES})
    return row


def extract_source(text: str, path: str = "<string>", **options):
    """Feature table (pandas DataFrame) of the kernels in a source string, e.g. a model's completion."""
    return _frame(rows_for_source(text, path, **options))


def extract(paths, *, jobs: int | None = 1, progress: bool = False, **options):
    """Feature table of every kernel in the given files and directories (.cu/.cuh).

    `paths`: one path (str or os.PathLike) or an iterable of them.
    `jobs`: worker processes (None = all cores); rows come out in path order either way, so the
    table is the same for any `jobs`. Errors per file are recorded in the `error` column."""
    from kernelscope.frontend.discover import expand_paths

    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [os.fsdecode(paths)]   # a string is one path, not a sequence of one-letter paths
    files = [str(p) for p in expand_paths(paths)]
    rows: list[dict] = []
    workers = _workers(jobs, len(files))
    if workers <= 1:
        for done, path in enumerate(files, 1):
            rows.extend(rows_for_file(path, options))
            _progress(progress, done, len(files))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            chunk = max(1, len(files) // (workers * 8))
            for done, file_rows in enumerate(pool.map(rows_for_file, files, [options] * len(files),
                                                      chunksize=chunk), 1):
                rows.extend(file_rows)
                _progress(progress, done, len(files))
    if progress:
        sys.stderr.write("\n")
    return _frame(rows)


def _workers(jobs: int | None, files: int) -> int:
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    wanted = available if jobs in (None, 0) else jobs
    return max(1, min(wanted, files))


def _progress(enabled: bool, done: int, total: int) -> None:
    if enabled and total:
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\rfeatures [{'#' * filled}{'.' * (width - filled)}] {done}/{total} files")
        sys.stderr.flush()


def _frame(rows: list[dict]):
    import pandas as pd

    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    frame["line"] = frame["line"].astype("Int64")
    for name in FEATURE_NAMES:
        frame[name] = frame[name].astype("float64")
    return frame


TABLE_SUFFIXES = (".csv", ".parquet", ".jsonl", ".ndjson")


def check_output(path: str) -> None:
    """Fail before any work for an output `write_table` could not write: an unknown suffix, or
    parquet without pyarrow (found out after minutes of extraction otherwise)."""
    suffix = Path(path).suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        from kernelscope.errors import UsageError
        raise UsageError(f"unknown output format {suffix or path!r}: use .csv, .parquet or .jsonl")
    if suffix == ".parquet":
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:
            from kernelscope.errors import ToolMissingError
            raise ToolMissingError("writing parquet needs pyarrow: pip install 'kernelscope[parquet]'")


def write_table(frame, path: str) -> None:
    """csv, parquet or jsonl by suffix; byte-identical output for identical input."""
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        frame.to_csv(path, index=False, float_format="%.10g", lineterminator="\n")
    elif suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            from kernelscope.errors import ToolMissingError
            raise ToolMissingError("writing parquet needs pyarrow: pip install 'kernelscope[parquet]'") from None
        frame.to_parquet(path, index=False)
    elif suffix in (".jsonl", ".ndjson"):
        import json

        import pandas as pd

        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            for record in frame.to_dict(orient="records"):
                clean = {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in record.items()}
                clean["line"] = int(clean["line"]) if pd.notna(clean["line"]) else None
                handle.write(json.dumps(clean, sort_keys=False) + "\n")
    else:
        from kernelscope.errors import UsageError
        raise UsageError(f"unknown output format {suffix!r}: use .csv, .parquet or .jsonl")


def schema_markdown() -> str:
    """docs/features.md, generated from FEATURES."""
    lines = [
        "# Feature schema",
        "",
        f"Version `{SCHEMA_VERSION}` (column `schema_version` of every table). Generated from",
        "`kernelscope/features.py` by `python -m kernelscope.features > docs/features.md`; a test keeps it current.",
        "",
        "One row per kernel. Identity columns: `file`, `kernel` (template name for templates), `line`,",
        "`error` (set, with empty features, when a file could not be analysed). Every feature is a float;",
        "flags and one-hots are 0/1; unknown values are NaN (for example FLOPs in a loop whose trip count",
        "depends on an unbound parameter).",
        "",
        "| column | kind | meaning |",
        "|---|---|---|",
    ]
    lines += [f"| `{f.name}` | {f.kind} | {f.meaning} |" for f in FEATURES]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(schema_markdown())
