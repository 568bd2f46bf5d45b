#!/usr/bin/env python3
"""Measure the real-world kernels (tests/kernels/realworld/, modelled on public CUDA programs) on a GPU:
hardware counters under one Nsight Compute process, and the driver's occupancy for every launch.

  build --out DIR     compiles every .cu file of the folder to a cubin (nvcc -arch=sm_90 -cubin), in
                      parallel; works without a GPU (the check that every kernel compiles)
  launch --build DIR  launches every [[launch]] of the manifest once, in order, each in its own
                      profiler range (what ncu watches)
  measure --out DIR   on the GPU machine: build, ask the occupancy oracle
                      (cuOccupancyMaxActiveBlocksPerMultiprocessor) about every launch, run ncu once
                      over `launch`, and write DIR/realworld_h200.csv (one row per launch) next to
                      ncu's raw CSV
  convert RAW ORACLE OUT   the tidy CSV from a raw ncu CSV and the oracle's CSV

The kernels are compiled with nvcc rather than NVRTC so that the host code in the files (the launches
and template instantiations the analyzer reads) is compiled too; each kernel is looked up in its
cubin by its mangled name.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import csv
import math
import shutil
import struct
import subprocess
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure_memory import SCALAR_TYPES, VECTOR_TYPES, array_layout, host_fill, parse_ncu_csv, parse_number  # noqa: E402

FOLDER = ROOT / "tests" / "kernels" / "realworld"
MANIFEST = FOLDER / "manifest.toml"
ARCH = "sm_90"
MAX_DYNAMIC_SHARED_ATTRIBUTE = 8     # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES

METRICS = {
    "ld_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "ld_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "st_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "st_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "theoretical_occupancy_pct": "sm__maximum_warps_per_active_cycle_pct",
    "achieved_occupancy_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "registers_per_thread": "launch__registers_per_thread",
    "static_shared_bytes": "launch__shared_mem_per_block_static",
    "limit_registers": "launch__occupancy_limit_registers",
    "limit_shared_mem": "launch__occupancy_limit_shared_mem",
    "limit_warps": "launch__occupancy_limit_warps",
    "limit_blocks": "launch__occupancy_limit_blocks",
    **{op: f"smsp__sass_thread_inst_executed_op_{op}_pred_on.sum"
       for op in ("fadd", "fmul", "ffma", "dadd", "dmul", "dfma")},
    "duration_ns": "gpu__time_duration.sum",
}
RATIOS = {"ld_sectors_per_request": ("ld_sectors", "ld_requests"),
          "st_sectors_per_request": ("st_sectors", "st_requests")}
LAUNCH_COLUMNS = ["id", "kernel", "file", "program", "block", "grid", "dynamic_shared_bytes", "opt_in"]
ORACLE_COLUMNS = ["oracle_active_blocks", "oracle_num_regs", "oracle_static_shared_bytes", "oracle_error"]
TIDY_COLUMNS = LAUNCH_COLUMNS + ORACLE_COLUMNS + ["ncu_kernel_name"] + list(METRICS) + list(RATIOS)


class ManifestError(ValueError):
    """The manifest does not describe a launchable kernel."""


def load_manifest(path: Path = MANIFEST) -> list[dict]:
    with open(path, "rb") as handle:
        launches = tomllib.load(handle).get("launch", [])
    seen = set()
    for launch in launches:
        for key in ("id", "kernel", "file", "program", "block", "grid", "args", "bindings"):
            if key not in launch:
                raise ManifestError(f"{launch.get('id', '?')}: missing {key}")
        if launch["id"] in seen:
            raise ManifestError(f"launch {launch['id']} is listed twice")
        seen.add(launch["id"])
        if math.prod(launch["block"]) > 1024:
            raise ManifestError(f"{launch['id']}: more than 1024 threads per block")
        if not (path.parent / launch["file"]).is_file():
            raise ManifestError(f"{launch['id']}: no file {launch['file']}")
        for arg in launch["args"]:
            dtype = arg.get("array") or arg.get("scalar")
            if dtype not in SCALAR_TYPES and dtype not in VECTOR_TYPES:
                raise ManifestError(f"{launch['id']}: argument {arg['name']} has unknown type {dtype}")
    return launches


def shape_text(shape) -> str:
    return "x".join(str(v) for v in shape)


# ---------------------------------------------------------------------------------------------
# Building and looking kernels up
# ---------------------------------------------------------------------------------------------

def build(out_dir: Path, files: list[str]) -> dict[str, Path]:
    """Compiles each file to DIR/<file>.cubin; raises with nvcc's message when one fails."""
    out_dir.mkdir(parents=True, exist_ok=True)
    nvcc = shutil.which("nvcc") or "nvcc"

    def one(name: str) -> Path:
        cubin = out_dir / f"{name}.cubin"
        result = subprocess.run([nvcc, f"-arch={ARCH}", "-cubin", "-o", str(cubin), str(FOLDER / name)],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"nvcc failed on {name}:\n{result.stderr}")
        return cubin

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        return dict(zip(files, pool.map(one, files)))


def function_symbols(cubin: bytes) -> list[str]:
    """Names of the functions in an ELF64 cubin's symbol table (no binutils needed)."""
    section_offset, = struct.unpack_from("<Q", cubin, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", cubin, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", cubin, section_offset + i * entry_size) for i in range(count)]
    found = []
    for _, kind, _, _, offset, size, link, _, _, sym_size in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        strings_offset = sections[link][4]
        for at in range(offset, offset + size, sym_size):
            name_at, info = struct.unpack_from("<IB", cubin, at)
            if info & 0xF == 2:  # STT_FUNC
                end = cubin.index(b"\0", strings_offset + name_at)
                found.append(cubin[strings_offset + name_at:end].decode())
    return found


def mangled_name(kernel: str, symbols: list[str]) -> str:
    """The cubin symbol of a kernel: Itanium names start _Z<length><name>; extern "C" ones are plain."""
    prefix = f"_Z{len(kernel)}{kernel}"
    matches = [s for s in symbols if s == kernel or s.startswith(prefix)]
    if len(matches) != 1:
        raise ManifestError(f"{kernel}: {len(matches)} matching symbols in the cubin ({symbols})")
    return matches[0]


# ---------------------------------------------------------------------------------------------
# Arguments and launches (CuPy only here)
# ---------------------------------------------------------------------------------------------

def initial_values(spec: dict, rng: np.random.Generator) -> np.ndarray | None:
    """Host contents of an array argument; None for all zeros."""
    fill = spec.get("fill", "zeros")
    if fill == "zeros":
        return None
    if fill == "expr":
        dtype, shape = array_layout(spec)
        index = np.arange(spec["count"])
        values = eval(spec["expr"], {"__builtins__": {}}, {"i": index, "where": np.where})  # the manifest is ours
        return np.broadcast_to(np.asarray(values), shape).astype(dtype)
    return host_fill(spec, rng)


def arguments(launch: dict, rng: np.random.Generator) -> list:
    import cupy

    values = []
    for spec in launch["args"]:
        if "scalar" in spec:
            values.append(np.dtype(spec["scalar"]).type(spec["value"]))
            continue
        host = initial_values(spec, rng)
        if host is None:
            dtype, shape = array_layout(spec)
            values.append(cupy.zeros(shape, dtype=dtype))
        else:
            values.append(cupy.asarray(host))
    return values


def load_functions(launches: list[dict], build_dir: Path) -> dict:
    import cupy

    modules, functions = {}, {}
    for launch in launches:
        name = launch["file"]
        if name not in modules:
            cubin = build_dir / f"{name}.cubin"
            modules[name] = (cupy.RawModule(path=str(cubin)), function_symbols(cubin.read_bytes()))
        module, symbols = modules[name]
        functions[launch["id"]] = module.get_function(mangled_name(launch["kernel"], symbols))
    return functions


def _pointer(function) -> int:
    return getattr(function, "kernel", function).ptr


def opt_in(function, launch: dict) -> None:
    """Raise the function's dynamic shared-memory cap when the launch says its host code does."""
    if launch.get("opt_in"):
        from cupy.cuda import driver
        driver.funcSetAttribute(_pointer(function), MAX_DYNAMIC_SHARED_ATTRIBUTE, launch.get("dynamic_shared_bytes", 0))


def launch_all(launches: list[dict], build_dir: Path) -> None:
    import cupy
    from cupy.cuda import profiler

    functions = load_functions(launches, build_dir)
    rng = np.random.default_rng(20261201)
    pool = cupy.get_default_memory_pool()
    for launch in launches:
        if launch.get("occupancy_only"):
            continue
        function = functions[launch["id"]]
        opt_in(function, launch)
        args = arguments(launch, rng)
        cupy.cuda.runtime.deviceSynchronize()
        profiler.start()
        function(tuple(launch["grid"]), tuple(launch["block"]), tuple(args),
                 shared_mem=launch.get("dynamic_shared_bytes", 0))
        cupy.cuda.runtime.deviceSynchronize()
        profiler.stop()
        del args
        pool.free_all_blocks()
        print(f"launched {launch['id']}", file=sys.stderr)


def oracle(launches: list[dict], build_dir: Path, path: Path) -> None:
    """The driver's active blocks per SM for each launch's block and dynamic shared memory."""
    from cupy.cuda import driver

    functions = load_functions(launches, build_dir)
    rows = []
    for launch in launches:
        function = functions[launch["id"]]
        opt_in(function, launch)
        row = {"id": launch["id"], "oracle_error": ""}
        pointer = _pointer(function)
        row["oracle_num_regs"] = driver.funcGetAttribute(4, pointer)          # CU_FUNC_ATTRIBUTE_NUM_REGS
        row["oracle_static_shared_bytes"] = driver.funcGetAttribute(1, pointer)  # SHARED_SIZE_BYTES
        try:
            row["oracle_active_blocks"] = driver.occupancyMaxActiveBlocksPerMultiprocessor(
                pointer, math.prod(launch["block"]), launch.get("dynamic_shared_bytes", 0))
        except Exception as exc:  # record what the driver said
            row["oracle_active_blocks"], row["oracle_error"] = "", f"{type(exc).__name__}: {exc}"
        rows.append(row)
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["id"] + ORACLE_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


# ---------------------------------------------------------------------------------------------
# ncu's rows + the oracle's -> tidy rows
# ---------------------------------------------------------------------------------------------

def tidy_rows(launches: list[dict], ncu_rows: list[dict], oracle_rows: dict) -> list[dict]:
    """ncu profiles the launches in launch order: the n-th profiled row is the n-th launched entry."""
    launched = [launch for launch in launches if not launch.get("occupancy_only")]
    if len(ncu_rows) != len(launched):
        raise ValueError(f"ncu profiled {len(ncu_rows)} launches, the manifest launches {len(launched)}")
    by_id = dict(zip((launch["id"] for launch in launched), ncu_rows))
    tidy = []
    for launch in launches:
        row = {"id": launch["id"], "kernel": launch["kernel"], "file": launch["file"], "program": launch["program"],
               "block": shape_text(launch["block"]), "grid": shape_text(launch["grid"]),
               "dynamic_shared_bytes": launch.get("dynamic_shared_bytes", 0), "opt_in": int(bool(launch.get("opt_in")))}
        row.update({k: oracle_rows.get(launch["id"], {}).get(k, "") for k in ORACLE_COLUMNS})
        ncu_row = by_id.get(launch["id"])
        row["ncu_kernel_name"] = ncu_row["Kernel Name"] if ncu_row else ""
        if ncu_row and launch["kernel"] not in ncu_row["Kernel Name"]:
            raise ValueError(f"{launch['id']}: ncu's row is {ncu_row['Kernel Name']}")
        for column, metric in METRICS.items():
            row[column] = parse_number(ncu_row[metric]) if ncu_row and metric in ncu_row else None
        for column, (num, den) in RATIOS.items():
            row[column] = round(row[num] / row[den], 6) if row[num] is not None and row[den] else None
        tidy.append(row)
    return tidy


def convert(raw: Path, oracle_path: Path, out: Path, launches: list[dict]) -> None:
    with open(oracle_path) as handle:
        oracle_rows = {row["id"]: row for row in csv.DictReader(handle)}
    rows = tidy_rows(launches, parse_ncu_csv(raw.read_text()), oracle_rows)
    with open(out, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=TIDY_COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if v is None else v) for k, v in row.items()})


def measure(out_dir: Path) -> int:
    launches = load_manifest()
    build_dir = out_dir / "cubins"
    build(build_dir, sorted({launch["file"] for launch in launches}))
    oracle(launches, build_dir, out_dir / "realworld_oracle.csv")
    raw = out_dir / "realworld_h200_ncu.csv"
    command = [shutil.which("ncu") or "ncu", "--clock-control", "none", "--profile-from-start", "off", "--csv",
               "--page", "raw", "--print-units", "base", "--metrics", ",".join(METRICS.values()),
               "--log-file", str(raw), sys.executable, str(Path(__file__).resolve()), "launch",
               "--build", str(build_dir)]
    result = subprocess.run(command)
    convert(raw, out_dir / "realworld_oracle.csv", out_dir / "realworld_h200.csv", launches)
    shutil.rmtree(build_dir)
    return result.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("build").add_argument("--out", type=Path, required=True)
    commands.add_parser("launch").add_argument("--build", type=Path, required=True)
    commands.add_parser("measure").add_argument("--out", type=Path, required=True)
    conv = commands.add_parser("convert")
    for name in ("raw", "oracle", "out"):
        conv.add_argument(name, type=Path)
    args = parser.parse_args(argv)
    launches = load_manifest()
    if args.command == "build":
        cubins = build(args.out, sorted({launch["file"] for launch in launches}))
        for launch in launches:  # every kernel must be findable in its cubin
            mangled_name(launch["kernel"], function_symbols(cubins[launch["file"]].read_bytes()))
        print(f"{len(cubins)} files, {len(launches)} launches: every kernel compiled and found")
        return 0
    if args.command == "launch":
        launch_all(launches, args.build)
        return 0
    if args.command == "measure":
        return measure(args.out)
    convert(args.raw, args.oracle, args.out, launches)
    return 0


if __name__ == "__main__":
    sys.exit(main())
