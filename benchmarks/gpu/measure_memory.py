#!/usr/bin/env python3
"""Measure the memory-access and FLOP ground-truth kernels on a GPU under Nsight Compute.

The kernels and their launches are listed in tests/kernels/memory/manifest.toml. Three commands:

  measure --out DIR   the driver: runs ncu over this script's `launch` command (one process for all
                      kernels), keeps ncu's raw CSV as DIR/memory_h200_ncu.csv and writes the tidy
                      table DIR/memory_h200.csv (one row per kernel; columns in README.md).
  launch [--only K]   compiles and launches every kernel once (what ncu or compute-sanitizer watches).
  convert RAW OUT     turns a raw ncu CSV into the tidy CSV.

Everything except `launch` works without a GPU; the CuPy part is confined to `launch_kernels`.
"""
from __future__ import annotations

import argparse
import csv
import io
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "tests" / "kernels" / "memory" / "manifest.toml"

# Tidy column -> ncu metric. Counts are summed over the whole launch.
METRICS = {
    "ld_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "ld_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "st_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "st_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "atom_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "atom_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
    "red_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    "red_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "shared_ld_requests": "smsp__inst_executed_op_shared_ld.sum",
    "shared_st_requests": "smsp__inst_executed_op_shared_st.sum",
    "shared_ld_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "shared_st_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "shared_ld_bank_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "shared_st_bank_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    **{op: f"smsp__sass_thread_inst_executed_op_{op}_pred_on.sum"
       for op in ("fadd", "fmul", "ffma", "dadd", "dmul", "dfma", "hadd", "hmul", "hfma")},
    "dram_read_bytes": "dram__bytes_read.sum",
    "dram_write_bytes": "dram__bytes_write.sum",
    "registers_per_thread": "launch__registers_per_thread",
    "duration_ns": "gpu__time_duration.sum",
}

# Ratios added to the tidy table: name -> (numerator, denominator); empty when the denominator is 0.
RATIOS = {
    "ld_sectors_per_request": ("ld_sectors", "ld_requests"),
    "st_sectors_per_request": ("st_sectors", "st_requests"),
    "atom_sectors_per_request": ("atom_sectors", "atom_requests"),
    "red_sectors_per_request": ("red_sectors", "red_requests"),
    "shared_ld_wavefronts_per_request": ("shared_ld_wavefronts", "shared_ld_requests"),
    "shared_st_wavefronts_per_request": ("shared_st_wavefronts", "shared_st_requests"),
}

LAUNCH_COLUMNS = ["kernel", "file", "block", "grid", "dynamic_shared_bytes", "threads"]
FLOP_COLUMNS = ["flops_fp32", "flops_fp64", "flops_fp16"]
TIDY_COLUMNS = LAUNCH_COLUMNS + list(METRICS) + list(RATIOS) + FLOP_COLUMNS

# CUDA vector types: NumPy base type and lanes (arrays of them get a trailing axis).
VECTOR_TYPES = {"float2": ("float32", 2), "float4": ("float32", 4), "int4": ("int32", 4), "half2": ("float16", 2)}
SCALAR_TYPES = {"uint8", "uint16", "int32", "uint32", "int64", "float16", "float32", "float64"}
FILLS = {"zeros", "random", "identity", "permutation"}


class ManifestError(ValueError):
    """The manifest does not describe a launchable kernel."""


# ---------------------------------------------------------------------------------------------
# Manifest
# ---------------------------------------------------------------------------------------------

def load_manifest(path: Path = MANIFEST) -> list[dict]:
    """Read and check the manifest; returns its [[kernel]] tables in file order."""
    with open(path, "rb") as handle:
        kernels = tomllib.load(handle).get("kernel", [])
    seen = set()
    for kernel in kernels:
        _check_kernel(kernel, path.parent)
        if kernel["name"] in seen:
            raise ManifestError(f"kernel {kernel['name']} is listed twice")
        seen.add(kernel["name"])
    return kernels


def _check_kernel(kernel: dict, folder: Path) -> None:
    name = kernel.get("name", "?")
    for key in ("name", "file", "block", "grid", "args", "bindings"):
        if key not in kernel:
            raise ManifestError(f"{name}: missing {key}")
    for key in ("block", "grid"):
        shape = kernel[key]
        if len(shape) != 3 or not all(isinstance(v, int) and v > 0 for v in shape):
            raise ManifestError(f"{name}: {key} must be three positive integers, got {shape}")
    if math.prod(kernel["block"]) > 1024:
        raise ManifestError(f"{name}: block {kernel['block']} has more than 1024 threads")
    if not (folder / kernel["file"]).is_file():
        raise ManifestError(f"{name}: no file {kernel['file']}")
    for arg in kernel["args"]:
        if ("array" in arg) == ("scalar" in arg):
            raise ManifestError(f"{name}: argument {arg.get('name')} must be an array or a scalar")
        dtype = arg.get("array") or arg.get("scalar")
        if dtype not in SCALAR_TYPES and not ("array" in arg and dtype in VECTOR_TYPES):
            raise ManifestError(f"{name}: argument {arg['name']} has unknown type {dtype}")
        fill = arg.get("fill", "zeros")
        if "array" in arg and fill not in FILLS:
            raise ManifestError(f"{name}: argument {arg['name']} has unknown fill {fill}")
        if fill in ("identity", "permutation") and dtype in VECTOR_TYPES:
            raise ManifestError(f"{name}: argument {arg['name']}: {fill} needs a scalar element type")


def shape_text(shape) -> str:
    return "x".join(str(v) for v in shape)


# ---------------------------------------------------------------------------------------------
# Arguments (NumPy on the host; `xp` is numpy on the CPU and cupy on the GPU)
# ---------------------------------------------------------------------------------------------

def array_layout(spec: dict) -> tuple[str, tuple[int, ...]]:
    """NumPy dtype and shape of an array argument."""
    dtype = spec["array"]
    if dtype in VECTOR_TYPES:
        base, lanes = VECTOR_TYPES[dtype]
        return base, (spec["count"], lanes)
    return dtype, (spec["count"],)


def host_fill(spec: dict, rng: np.random.Generator) -> np.ndarray:
    """The initial contents of an array argument that is not all zeros."""
    dtype, shape = array_layout(spec)
    fill = spec["fill"]
    if fill == "identity":
        return np.arange(spec["count"], dtype=dtype)
    if fill == "permutation":
        return rng.permutation(spec["count"]).astype(dtype)
    if np.issubdtype(np.dtype(dtype), np.integer):
        if "high" not in spec:
            raise ManifestError(f"argument {spec['name']}: random integers need 'high'")
        return rng.integers(spec.get("low", 0), spec["high"], size=shape).astype(dtype)
    return rng.uniform(spec.get("low", 0.0), spec.get("high", 1.0), size=shape).astype(dtype)


def build_arguments(kernel: dict, xp, rng: np.random.Generator) -> list:
    """The launch arguments of a kernel: xp arrays and NumPy scalars, in parameter order."""
    values = []
    for spec in kernel["args"]:
        if "scalar" in spec:
            values.append(np.dtype(spec["scalar"]).type(spec["value"]))
        elif spec.get("fill", "zeros") == "zeros":
            dtype, shape = array_layout(spec)
            values.append(xp.zeros(shape, dtype=dtype))
        else:
            values.append(xp.asarray(host_fill(spec, rng)))
    return values


# ---------------------------------------------------------------------------------------------
# Launching (the only part that needs CuPy and a GPU)
# ---------------------------------------------------------------------------------------------

def launch_kernels(kernels: list[dict], folder: Path, exact_allocations: bool = False) -> None:
    """Launch every kernel once, each inside its own profiler range, freeing its buffers after.

    exact_allocations gives every array its own cudaMalloc of exactly its size (no memory pool), so
    that compute-sanitizer's memcheck sees any access past an array's end.
    """
    import cupy
    from cupy.cuda import profiler

    if exact_allocations:
        cupy.cuda.set_allocator(None)

    modules = {}
    rng = np.random.default_rng(20261130)
    pool = cupy.get_default_memory_pool()
    for kernel in kernels:
        source = kernel["file"]
        if source not in modules:
            # CuPy adds -arch=sm_XY for the current device itself (sm_90 on the H200).
            modules[source] = cupy.RawModule(code=(folder / source).read_text())
        function = modules[source].get_function(kernel["name"])
        args = build_arguments(kernel, cupy, rng)
        cupy.cuda.runtime.deviceSynchronize()
        profiler.start()
        function(tuple(kernel["grid"]), tuple(kernel["block"]), tuple(args),
                 shared_mem=kernel.get("dynamic_shared_bytes", 0))
        cupy.cuda.runtime.deviceSynchronize()
        profiler.stop()
        del args
        pool.free_all_blocks()
        print(f"launched {kernel['name']}", file=sys.stderr)


# ---------------------------------------------------------------------------------------------
# ncu's CSV -> tidy rows
# ---------------------------------------------------------------------------------------------

def parse_number(text: str):
    """ncu prints counts with thousands separators; returns int, float, or None for n/a."""
    text = text.strip().replace(",", "")
    if text in ("", "n/a", "N/A"):
        return None
    value = float(text)
    return int(value) if value.is_integer() else value


def parse_ncu_csv(text: str) -> list[dict]:
    """Rows of ncu's `--csv --page raw` output; skips tool messages and the units row."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        return []
    body = [line for line in lines[start:] if line.startswith('"')]
    reader = csv.DictReader(io.StringIO("\n".join(body)))
    rows = list(reader)
    return rows[1:] if rows and not rows[0].get("ID", "").strip().isdigit() else rows


def _parse_shape(text: str) -> list[int]:
    return [int(v) for v in re.findall(r"\d+", text)]


def base_kernel_name(name: str) -> str:
    return name.split("(")[0].split("<")[0].strip()


def tidy_rows(kernels: list[dict], ncu_rows: list[dict]) -> tuple[list[dict], list[str]]:
    """One tidy row per manifest kernel that ncu profiled, and the names it did not profile."""
    by_name = {}
    for row in ncu_rows:
        name = base_kernel_name(row["Kernel Name"])
        if name in by_name:
            raise ValueError(f"ncu profiled {name} more than once")
        by_name[name] = row
    tidy, missing = [], []
    for kernel in kernels:
        row = by_name.get(kernel["name"])
        if row is None:
            missing.append(kernel["name"])
            continue
        tidy.append(tidy_row(kernel, row))
    return tidy, missing


def tidy_row(kernel: dict, ncu_row: dict) -> dict:
    for key, column in (("block", "Block Size"), ("grid", "Grid Size")):
        launched = ncu_row.get(column)
        if launched and len(_parse_shape(launched)) == 3 and _parse_shape(launched) != list(kernel[key]):
            raise ValueError(f"{kernel['name']}: ncu saw {column} {launched}, the manifest says {kernel[key]}")
    out = {
        "kernel": kernel["name"],
        "file": kernel["file"],
        "block": shape_text(kernel["block"]),
        "grid": shape_text(kernel["grid"]),
        "dynamic_shared_bytes": kernel.get("dynamic_shared_bytes", 0),
        "threads": math.prod(kernel["block"]) * math.prod(kernel["grid"]),
    }
    for column, metric in METRICS.items():
        out[column] = parse_number(ncu_row[metric]) if metric in ncu_row else None
    for column, (num, den) in RATIOS.items():
        out[column] = round(out[num] / out[den], 6) if out[num] is not None and out[den] else None
    for column, (add, mul, fma) in zip(FLOP_COLUMNS, (("fadd", "fmul", "ffma"), ("dadd", "dmul", "dfma"),
                                                      ("hadd", "hmul", "hfma"))):
        parts = (out[add], out[mul], out[fma])
        out[column] = None if None in parts else parts[0] + parts[1] + 2 * parts[2]
    return out


def write_tidy_csv(rows: list[dict], path: Path) -> None:
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=TIDY_COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if v is None else v) for k, v in row.items()})


def convert(raw_path: Path, tidy_path: Path, kernels: list[dict]) -> list[str]:
    rows, missing = tidy_rows(kernels, parse_ncu_csv(raw_path.read_text()))
    write_tidy_csv(rows, tidy_path)
    return missing


# ---------------------------------------------------------------------------------------------
# Driver: ncu over `launch`
# ---------------------------------------------------------------------------------------------

def ncu_command(metrics: list[str], log_file: Path, only: str | None = None) -> list[str]:
    command = [shutil.which("ncu") or "ncu", "--clock-control", "none", "--profile-from-start", "off",
               "--csv", "--page", "raw", "--print-units", "base", "--metrics", ",".join(metrics),
               "--log-file", str(log_file), sys.executable, str(Path(__file__).resolve()), "launch"]
    return command + (["--only", only] if only else [])


def rejected_metrics(metrics: list[str], log_text: str) -> list[str]:
    """Metrics that ncu's error lines name (an unknown metric fails the whole run)."""
    errors = [line for line in log_text.splitlines() if "==ERROR==" in line]
    return [m for m in metrics if any(m.split(".")[0] in line for line in errors)]


def usable_metrics(metrics: list[str], scratch: Path, probe_kernel: str) -> list[str]:
    """Drops metrics this ncu does not know, by profiling one kernel first (cheap, one launch)."""
    for _ in range(3):
        log = scratch / "ncu_probe.log"
        result = subprocess.run(ncu_command(metrics, log, only=probe_kernel), capture_output=True, text=True)
        text = log.read_text() if log.exists() else ""
        if result.returncode == 0 and "==ERROR==" not in text and parse_ncu_csv(text):
            return metrics
        bad = rejected_metrics(metrics, text + result.stderr)
        print(f"ncu probe failed (exit {result.returncode}); dropping {bad}\n{text[-2000:]}{result.stderr[-2000:]}",
              file=sys.stderr)
        if not bad:
            raise RuntimeError("ncu fails on a single kernel for a reason other than a metric name")
        metrics = [m for m in metrics if m not in bad]
    return metrics


def measure(out_dir: Path) -> int:
    kernels = load_manifest()
    out_dir.mkdir(parents=True, exist_ok=True)
    metrics = usable_metrics(list(METRICS.values()), out_dir, kernels[0]["name"])
    raw = out_dir / "memory_h200_ncu.csv"
    result = subprocess.run(ncu_command(metrics, raw))
    missing = convert(raw, out_dir / "memory_h200.csv", kernels)
    if missing:
        print(f"not profiled: {', '.join(missing)}", file=sys.stderr)
    return result.returncode or (1 if missing else 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("measure").add_argument("--out", type=Path, required=True)
    launch = commands.add_parser("launch")
    launch.add_argument("--only", help="launch just this kernel")
    launch.add_argument("--exact-allocations", action="store_true", help="no memory pool (for memcheck)")
    conv = commands.add_parser("convert")
    conv.add_argument("raw", type=Path)
    conv.add_argument("tidy", type=Path)
    args = parser.parse_args(argv)

    if args.command == "measure":
        return measure(args.out)
    kernels = load_manifest()
    if args.command == "launch":
        chosen = [k for k in kernels if args.only in (None, k["name"])]
        if not chosen:
            parser.error(f"no kernel named {args.only}")
        launch_kernels(chosen, MANIFEST.parent, exact_allocations=args.exact_allocations)
        return 0
    missing = convert(args.raw, args.tidy, kernels)
    if missing:
        print(f"not in the raw CSV: {', '.join(missing)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
