"""Run the seeded synchronization corpus under compute-sanitizer racecheck and synccheck.

Each kernel of tests/kernels/sync/manifest.toml is compiled once with nvcc -lineinfo into a cubin, then
launched once per tool in its own sanitizer process (a hang or a poisoned context then costs one kernel,
not the run). The processes run in parallel. Every report is parsed into one CSV row per kernel and tool:

    kernel, tool, verdict (hazard | clean | timeout | failed), hazard_kind, lines, severity, reports

and the raw sanitizer output is kept next to it so the parse can be redone without a GPU:

    python3 benchmarks/gpu/sanitize_sync.py run --out $OUT            # on the GPU machine
    python3 benchmarks/gpu/sanitize_sync.py parse $OUT/sync_sanitizer_logs.jsonl -o verdicts.csv
    python3 benchmarks/gpu/sanitize_sync.py launch NAME --cubins DIR  # what each sanitizer process runs
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "kernels" / "sync"
TOOLS = ("racecheck", "synccheck")
SANITIZER_EXIT = 99
PER_PROCESS_TIMEOUT_S = 60

TOOL_FLAGS = {
    # info level also shows hazards racecheck deems benign (e.g. equal values), so nothing is hidden
    "racecheck": ["--racecheck-detect-level", "info"],
    "synccheck": [],
}

CSV_FIELDS = ("kernel", "tool", "verdict", "hazard_kind", "lines", "severity", "reports")


def load_manifest(corpus: Path = CORPUS) -> list[dict]:
    with open(corpus / "manifest.toml", "rb") as handle:
        return tomllib.load(handle)["kernel"]


# ---------------------------------------------------------------- compiling and launching

def compile_cubin(entry: dict, cubins: Path) -> Path:
    # a path relative to the repository root, so the reports name tests/kernels/sync/<file>
    source = (CORPUS / entry["file"]).relative_to(ROOT)
    target = cubins / (entry["name"] + ".cubin")
    subprocess.run(["nvcc", "-arch=sm_90", "-lineinfo", "-cubin", "-o", str(target), str(source)],
                   cwd=ROOT, check=True, capture_output=True, text=True)
    return target


def build_arguments(entry: dict):
    import cupy
    import numpy

    rng = numpy.random.default_rng(sum(map(ord, entry["name"])))
    values = []
    for spec in entry["args"]:
        if "scalar" in spec:
            values.append(numpy.dtype(spec["scalar"]).type(spec["value"]))
            continue
        dtype, size, fill = numpy.dtype(spec["array"]), spec["size"], spec.get("fill", "normal")
        if fill == "zeros":
            host = numpy.zeros(size, dtype)
        elif fill == "flags":
            host = rng.integers(0, 2, size).astype(dtype)
        else:
            host = rng.standard_normal(size).astype(dtype)
        values.append(cupy.asarray(host))
    return values


def launch(name: str, cubins: Path) -> None:
    import cupy

    entry = next(e for e in load_manifest() if e["name"] == name)
    function = cupy.RawModule(path=str(cubins / (name + ".cubin"))).get_function(name)
    function(tuple(entry["grid"]), tuple(entry["block"]), tuple(build_arguments(entry)),
             shared_mem=entry.get("dynamic_smem", 0))
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
    return {"kernel": entry["name"], "file": entry["file"], "tool": tool, "returncode": returncode,
            "seconds": round(time.perf_counter() - started, 2), "output": output}


def run_all(out: Path, jobs: int) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    # cubins stay outside $OUT: only a handful of files come back from the GPU machine
    cubins = Path(tempfile.mkdtemp(prefix="sync-cubins-"))
    manifest = load_manifest()
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(lambda entry: compile_cubin(entry, cubins), manifest))
        runs = list(pool.map(lambda pair: sanitize(pair[0], pair[1], cubins),
                             [(entry, tool) for entry in manifest for tool in TOOLS]))
    log = out / "sync_sanitizer_logs.jsonl"
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
        log = run_all(args.out, args.jobs)
        rows = write_verdicts(log, args.out / "sync_verdicts_h200.csv")
        print(f"sanitized {len(rows)} kernel/tool pairs in {time.perf_counter() - started:.1f} s")
    else:
        rows = write_verdicts(args.log, args.output)
    for row in rows:
        print(f"{row['kernel']:32s} {row['tool']:10s} {row['verdict']:8s} {row['hazard_kind']:28s} {row['lines']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
