"""Run synchronization test kernels under compute-sanitizer racecheck and synccheck.

Four sets: the seeded corpus (tests/kernels/sync/manifest.toml); as kernels written by others for
other purposes, every implementation in corpus/*/spec.toml that uses shared memory, barriers, warp
intrinsics or atomics (launched at its smallest size); those implementations once per barrier
with that barrier deleted (racecheck only); and the labelled race suite (tests/kernels/races/,
each launch written in the file's header, cooperative kernels launched cooperatively). Each kernel is compiled once with
nvcc -lineinfo into a cubin, then launched once per tool in its own sanitizer process (a hang or a
poisoned context then costs one kernel, not the run); the processes run in parallel. Every report is
parsed into one CSV row per kernel and tool:

    kernel, tool, verdict (hazard | clean | timeout | failed), hazard_kind, lines, severity, reports

and the raw sanitizer output is kept next to it so the parse can be redone without a GPU:

    python3 benchmarks/gpu/sanitize_sync.py run --out $OUT [--corpus | --mutants | --races]   # on the GPU machine
    python3 benchmarks/gpu/sanitize_sync.py parse LOGS.jsonl -o verdicts.csv
    python3 benchmarks/gpu/sanitize_sync.py launch NAME --cubins DIR   # what each sanitizer process runs
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEEDED = ROOT / "tests" / "kernels" / "sync"
PROBLEMS = ROOT / "corpus"
TOOLS = ("racecheck", "synccheck")
SANITIZER_EXIT = 99
PER_PROCESS_TIMEOUT_S = 45
SYNC_WORDS = ("__shared__", "__syncthreads", "__syncwarp", "_sync(", "atomic", ".sync()")

TOOL_FLAGS = {
    # info level also shows hazards racecheck deems benign (e.g. equal values), so nothing is hidden
    "racecheck": ["--racecheck-detect-level", "info"],
    "synccheck": [],
}

CSV_FIELDS = ("kernel", "tool", "verdict", "hazard_kind", "lines", "severity", "reports")


# ---------------------------------------------------------------- what to run

def load_manifest(corpus: Path = SEEDED) -> list[dict]:
    with open(corpus / "manifest.toml", "rb") as handle:
        return tomllib.load(handle)["kernel"]


def seeded_entries() -> list[dict]:
    """Launch descriptions: name (unique), kernel (symbol), file (from the repository root), block,
    grid, dynamic_smem, args ({array, size, fill[, low, high]} or {scalar, value})."""
    return [{"name": e["name"], "kernel": e["name"], "file": str((SEEDED / e["file"]).relative_to(ROOT)),
             "block": e["block"], "grid": e["grid"], "dynamic_smem": e.get("dynamic_smem", 0), "args": e["args"]}
            for e in load_manifest()]


def problem_entries(problems: Path = PROBLEMS) -> list[dict]:
    """Every corpus implementation that synchronizes, at its spec's smallest size."""
    from kernelscope.runner.plan import single_launch
    from kernelscope.runner.spec import load_spec

    entries = []
    for spec_path in sorted(problems.glob("*/spec.toml")):
        spec = load_spec(spec_path)
        size = min(spec.sizes, key=lambda s: math.prod(v for v in spec.sizes[s].values() if isinstance(v, (int, float))))
        variables = spec.variables(size)
        arrays = {a.name: a for a in spec.arrays()}
        scalars = {s.name: s for s in spec.scalars}
        for implementation in spec.implementations:
            if implementation.file.startswith("plans/"):
                continue     # the sanitizer verdicts cover the one-kernel implementations; plans/ came later
            source = spec.resolve(implementation.file)
            if not any(word in source.read_text() for word in SYNC_WORDS):
                continue
            launch = single_launch(spec, implementation, size)   # its file's plan, or [launch]
            if launch is None:       # one kernel per entry: plans of several kernels are left out
                continue
            args = []
            for name in launch.args:
                if name in arrays:
                    array = arrays[name]
                    item = {"array": array.dtype, "size": math.prod(spec.shape(array, size)), "fill": "zeros"}
                    if array.distribution is not None:
                        low, high = array.distribution.params
                        item.update(fill=array.distribution.kind, low=low, high=high)
                    args.append(item)
                else:
                    args.append({"scalar": scalars[name].dtype, "value": variables[name]})
            entries.append({"name": f"{spec.name}/{source.stem}", "kernel": launch.kernel,
                            "file": str(source.relative_to(ROOT)), "block": list(launch.block),
                            "grid": list(launch.grid), "dynamic_smem": launch.dynamic_smem, "args": args,
                            "size": size, "bindings": {k: v for k, v in variables.items()}})
    return entries


BARRIER_STATEMENT = re.compile(r"__syncthreads\(\)\s*;|__syncwarp\(\)\s*;")


def without_barrier(text: str, k: int) -> tuple[str, int]:
    """The source with its k-th barrier statement blanked out (lines and columns kept), and that line."""
    match = list(BARRIER_STATEMENT.finditer(text))[k]
    line = text.count("\n", 0, match.start()) + 1
    return text[:match.start()] + " " * (match.end() - match.start()) + text[match.end():], line


def mutants(problem_entry: dict) -> list[tuple[str, str, int]]:
    """(name, source, removed line) for every way of deleting one barrier from an implementation."""
    text = (ROOT / problem_entry["file"]).read_text()
    found = []
    for k in range(len(BARRIER_STATEMENT.findall(text))):
        source, line = without_barrier(text, k)
        found.append((f"{problem_entry['name']}-L{line}", source, line))
    return found


def race_suite_entries() -> list[dict]:
    """The race suite's kernels with the launch each file's header gives."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("race_suite", ROOT / "benchmarks" / "race_suite.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [{key: entry[key] for key in ("name", "kernel", "file", "block", "grid", "dynamic_smem", "args",
                                         "cooperative")} for entry in module.entries()]


def mutant_entries(directory: Path) -> list[dict]:
    """Each corpus implementation once per barrier, that barrier removed: realistic missing-barrier
    bugs for which racecheck decides whether a race follows at this launch."""
    entries = []
    for entry in problem_entries():
        for name, source, line in mutants(entry):
            path = directory / (name.replace("/", "__") + ".cu")
            path.write_text(source)
            entries.append({**entry, "name": name, "file": str(path), "removed_line": line})
    return entries


# ---------------------------------------------------------------- compiling and launching

def cubin_name(entry: dict) -> str:
    return entry["name"].replace("/", "__") + ".cubin"


def compile_cubin(entry: dict, cubins: Path) -> Path:
    # the path stays relative to the repository root, so reports name the file as the repo does
    target = cubins / cubin_name(entry)
    subprocess.run(["nvcc", "-arch=sm_90", "-lineinfo", "-cubin", "-o", str(target), entry["file"]],
                   cwd=ROOT, check=True, capture_output=True, text=True)
    return target


def host_arguments(entry: dict) -> list:
    """NumPy arrays and scalars for the launch, seeded by the kernel's name."""
    import numpy

    rng = numpy.random.default_rng(sum(map(ord, entry["name"])))
    values = []
    for spec in entry["args"]:
        if "scalar" in spec:
            values.append(numpy.dtype(spec["scalar"]).type(spec["value"]))
            continue
        dtype, size, fill = numpy.dtype(spec["array"]), spec["size"], spec.get("fill", "normal")
        if fill == "zeros":
            host = numpy.zeros(size)
        elif fill == "flags":
            host = rng.integers(0, 2, size)
        elif fill == "randint" or (dtype.kind in "iu" and fill in ("uniform", "normal") and "low" in spec):
            host = rng.integers(int(spec["low"]), int(spec["high"]), size)
        elif fill == "uniform":
            host = rng.uniform(spec["low"], spec["high"], size)
        elif fill == "normal" and "low" in spec:
            host = rng.normal(spec["low"], spec["high"], size)    # (mean, standard deviation)
        else:
            host = rng.standard_normal(size)
        values.append(host.astype(dtype))
    return values


def launch(name: str, cubins: Path) -> None:
    import cupy

    entries = json.loads((cubins / "entries.json").read_text())
    entry = next(e for e in entries if e["name"] == name)
    # a cooperative launch (cuLaunchCooperativeKernel) is what makes this_grid().sync() legal
    module = cupy.RawModule(path=str(cubins / cubin_name(entry)),
                            enable_cooperative_groups=bool(entry.get("cooperative")))
    function = module.get_function(entry["kernel"])
    args = [cupy.asarray(v) if getattr(v, "ndim", 0) else v for v in host_arguments(entry)]
    function(tuple(entry["grid"]), tuple(entry["block"]), tuple(args), shared_mem=entry.get("dynamic_smem", 0))
    cupy.cuda.Device().synchronize()


def sanitize(entry: dict, tool: str, cubins: Path) -> dict:
    command = ["compute-sanitizer", "--tool", tool, *TOOL_FLAGS[tool],
               "--error-exitcode", str(SANITIZER_EXIT), "--print-limit", "100", "--show-backtrace", "no",
               sys.executable, str(Path(__file__).resolve()), "launch", entry["name"], "--cubins", str(cubins)]
    started = time.perf_counter()
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=PER_PROCESS_TIMEOUT_S)
        returncode, output = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as expired:
        returncode = None
        output = "".join(part.decode() if isinstance(part, bytes) else (part or "")
                         for part in (expired.stdout, expired.stderr))
    return {"kernel": entry["name"], "file": Path(entry["file"]).name, "tool": tool, "returncode": returncode,
            "seconds": round(time.perf_counter() - started, 2), "output": output}


def run_all(entries: list[dict], log: Path, jobs: int, cubins: Path, tools=TOOLS) -> Path:
    (cubins / "entries.json").write_text(json.dumps(entries))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(lambda entry: compile_cubin(entry, cubins), entries))
        runs = list(pool.map(lambda pair: sanitize(pair[0], pair[1], cubins),
                             [(entry, tool) for entry in entries for tool in tools]))
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as handle:
        for record in runs:
            handle.write(json.dumps(record) + "\n")
    return log


# ---------------------------------------------------------------- parsing reports

SANITIZER_PREFIX = re.compile(r"^=+ ?")
# racecheck names one access, then one or more "and <kind> access at ..." partners
RACE = re.compile(r"(?:(Error|Warning|Info)\s*:\s*)?Race reported between (\w+) access at .*? in (\S+?):(\d+)")
PARTNER = re.compile(r"and (\w+) access at .*? in (\S+?):(\d+)")
LOCATION = re.compile(r" in (\S+?\.cu):(\d+)")
HAZARD_OF_PAIR = {("Write", "Read"): "RAW", ("Read", "Write"): "WAR", ("Write", "Write"): "WAW"}
NOT_A_REPORT = ("COMPUTE-SANITIZER", "ERROR SUMMARY", "RACECHECK SUMMARY", "LEAK SUMMARY", "Program hit",
                "Saved host backtrace", "Target application returned")


def report_blocks(output: str) -> list[str]:
    """Sanitizer lines grouped into reports: a report starts at an unindented line, continues indented."""
    blocks: list[list[str]] = []
    for raw in output.splitlines():
        if not raw.startswith("="):
            continue
        line = SANITIZER_PREFIX.sub("", raw)
        if not line.strip():
            continue
        if line[0] != " ":
            blocks.append([line.strip()])
        elif blocks:
            blocks[-1].append(line.strip())
    return [" ".join(block) for block in blocks if not block[0].startswith(NOT_A_REPORT)]


def parse_record(record: dict) -> dict:
    own_file = record["file"]
    kinds, lines, severities, reports = set(), set(), set(), 0
    for block in report_blocks(record["output"]):
        race = RACE.search(block)
        if race:
            severity, first, first_file, first_line = race.groups()
            partners = [(kind, int(line)) for kind, path, line in PARTNER.findall(block[race.end():])
                        if path.endswith(own_file)]
            if not (first_file.endswith(own_file) and partners):
                continue
            kinds.update(HAZARD_OF_PAIR.get((first, kind), f"{first}-{kind}") for kind, _ in partners)
            lines.add(int(first_line))
            lines.update(line for _, line in partners)
            severities.add((severity or "error").lower())
            reports += 1
            continue
        places = [(path, int(line)) for path, line in LOCATION.findall(block) if path.endswith(own_file)]
        if not places:
            continue
        kinds.add(block.split(" at ")[0].strip(" .").replace(",", ";"))
        lines.update(line for _, line in places)
        severities.add("error")
        reports += 1
    if record["returncode"] is None:
        verdict = "timeout"
    elif reports:
        verdict = "hazard"
    elif record["returncode"] == 0:
        verdict = "clean"
    else:
        verdict = "failed"
    return {"kernel": record["kernel"], "tool": record["tool"], "verdict": verdict,
            "hazard_kind": ";".join(sorted(kinds)), "lines": " ".join(map(str, sorted(lines))),
            "severity": ";".join(sorted(severities)), "reports": reports}


def write_verdicts(log: Path, target: Path) -> list[dict]:
    with open(log) as handle:
        rows = [parse_record(json.loads(line)) for line in handle if line.strip()]
    rows.sort(key=lambda row: (row["kernel"], row["tool"]))
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "w", newline="") as handle:
        writer = csv.DictWriter(handle, CSV_FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run")
    run.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "sanitize-out")))
    run.add_argument("--jobs", type=int, default=min(12, os.cpu_count() or 4))
    which = run.add_mutually_exclusive_group()
    which.add_argument("--corpus", action="store_true", help="the corpus/ implementations instead of the seeded set")
    which.add_argument("--mutants", action="store_true",
                       help="corpus/ implementations with one barrier removed, racecheck only")
    which.add_argument("--races", action="store_true", help="the labelled race suite (tests/kernels/races/)")
    parse = commands.add_parser("parse")
    parse.add_argument("log", type=Path)
    parse.add_argument("-o", "--output", type=Path, required=True)
    one = commands.add_parser("launch")
    one.add_argument("name")
    one.add_argument("--cubins", type=Path, required=True)
    args = parser.parse_args(argv)

    if args.command == "launch":
        launch(args.name, args.cubins)
        return 0
    if args.command == "run":
        started = time.perf_counter()
        # cubins (and mutated sources) stay outside $OUT: only a handful of files come back
        work = Path(tempfile.mkdtemp(prefix="sync-sanitize-"))
        prefix, tools = ("mutants_", ("racecheck",)) if args.mutants else \
            ("races_" if args.races else "corpus_" if args.corpus else "", TOOLS)
        entries = mutant_entries(work) if args.mutants else problem_entries() if args.corpus else \
            race_suite_entries() if args.races else seeded_entries()
        log = run_all(entries, args.out / f"{prefix}sync_sanitizer_logs.jsonl", args.jobs, work, tools)
        rows = write_verdicts(log, args.out / f"{prefix}sync_verdicts_h200.csv")
        print(f"sanitized {len(rows)} kernel/tool pairs in {time.perf_counter() - started:.1f} s")
    else:
        rows = write_verdicts(args.log, args.output)
    for row in rows:
        print(f"{row['kernel']:40s} {row['tool']:10s} {row['verdict']:8s} {row['hazard_kind']:28s} {row['lines']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
