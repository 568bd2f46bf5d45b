"""Where a warm `kernelscope analyze` of the realistic file spends its instructions, by component.

Runs one warm pass of `analyze --format json --registers estimate` on the realistic file (the same
800-kernel file and the same in-process CliRunner call as bench_analyze.py's in-process figure) under
valgrind's callgrind, then adds up the instructions by the component that executed them:

  * the CPython interpreter and its objects (byte code, frames, dicts, allocation): the part a faster
    Python-level analysis could shrink;
  * tree-sitter's parse (parser core and the CUDA grammar's lexer): fixed by the text;
  * tree-sitter's node API (what the walk reads of the tree);
  * numpy, the json encoder, libc.

With `--kernels-per-s K` (bench_analyze.py's in-process figure on a machine of the targets' speed)
it also prints what the 1,500 kernels per CPU s target asks of the interpreter's share, taking the
other components as they are.

    python benchmarks/component_shares.py [--kernels 800] [--kernels-per-s 920] [--keep-profile FILE]

Needs valgrind; takes a few minutes (callgrind runs the pass about 50x slower).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_analyze  # noqa: E402


def drive(kernels: int) -> None:
    """The profiled program: one warm-up pass, then the counted pass inside itertools.starmap,
    whose C function callgrind toggles collection on (kernelscope never calls starmap)."""
    from click.testing import CliRunner

    from kernelscope.cli import cli

    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "realistic.cu")
    Path(path).write_text(bench_analyze.realistic_source(kernels)[0])
    runner = CliRunner()

    def run():
        result = runner.invoke(cli, [*bench_analyze.ANALYZE, path])
        if result.exit_code not in (0, 1):
            raise SystemExit(f"analyze failed ({result.exit_code}): {result.output[:300]}")

    run()
    list(itertools.starmap(run, [()]))
    shutil.rmtree(folder)


def component(where: str, obj: str) -> str:
    """The component of one line of `callgrind_annotate --inclusive=no`: `where` is file:function,
    `obj` the shared object (empty for code inlined from a header, which names no object)."""
    function = where.rsplit(":", 1)[-1]
    if "tree_sitter_cuda" in obj or function.startswith("ts_lex"):
        return "tree-sitter: CUDA grammar (lexer)"
    if function.startswith(("ts_node", "ts_tree_cursor", "ts_tree_root", "ts_language_field",
                            "ts_language_symbol")):
        return "tree-sitter: node API (what the walk reads)"
    if "/tree_sitter/core/" in where or function.startswith("ts_"):
        return "tree-sitter: parser core"
    if os.path.basename(obj).startswith("_binding.cpython") or "tree_sitter/binding" in where:
        return "tree-sitter: Python bindings"
    if "numpy" in where or "_multiarray_umath" in obj:
        return "numpy"
    if "_json" in where or function.startswith("encoder_") or "_json" in obj:
        return "json encoder"
    if os.path.basename(obj).startswith(("libc.", "libm.")):
        return "libc/libm"
    if "Python-3" in where or "libpython" in obj or re.search(r"/python3\.\d+$", obj):
        return "CPython interpreter and objects"
    return "other"


LINE = re.compile(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S+)(?:\s+\[(.*)\])?\s*$")


def shares(profile: str) -> tuple[int, collections.Counter]:
    """(total instructions, instructions by component) of a callgrind profile."""
    out = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", profile],
                         capture_output=True, text=True, check=True).stdout
    total = 0
    by_component: collections.Counter = collections.Counter()
    for line in out.splitlines():
        if "PROGRAM TOTALS" in line:
            total = int(line.split()[0].replace(",", ""))
            continue
        match = LINE.match(line)
        if match:
            by_component[component(match.group(2), match.group(3) or "")] += int(match.group(1).replace(",", ""))
    return total, by_component


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", type=int, default=800, help="kernels in the realistic file")
    parser.add_argument("--kernels-per-s", type=float,
                        help="bench_analyze.py's in-process figure, for what the target asks")
    parser.add_argument("--keep-profile", type=Path, help="keep callgrind's profile here")
    parser.add_argument("--drive", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive:
        drive(args.kernels)
        return
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        raise SystemExit("component_shares: needs valgrind (callgrind) on PATH")
    with tempfile.TemporaryDirectory() as scratch:
        profile = str(args.keep_profile or Path(scratch) / "callgrind.out")
        environment = {**os.environ, "PYTHONHASHSEED": "0",
                       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        counted = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}",
                                  "--collect-atstart=no", "--toggle-collect=starmap_next", sys.executable, __file__,
                                  "--drive", "--kernels", str(args.kernels)],
                                 env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if counted.returncode != 0:
            last = [line for line in counted.stderr.splitlines() if line.strip() and not line.startswith("==")][-1:]
            raise SystemExit(f"component_shares: the profiled pass failed: {' '.join(last) or counted.returncode}")
        total, by_component = shares(profile)
    if not total:
        raise SystemExit("component_shares: callgrind counted nothing (did the driver fail? run it with --drive)")
    print(f"one warm in-process analyze of the realistic file ({args.kernels} kernels): "
          f"{total / 1e6:,.1f} M instructions")
    for name, count in by_component.most_common():
        print(f"  {count / 1e6:9,.1f} M  {count / total * 100:5.1f}%  {name}")
    print(f"  {(total - sum(by_component.values())) / 1e6:9,.1f} M         below callgrind_annotate's threshold")
    if args.kernels_per_s:
        interpreter = by_component["CPython interpreter and objects"]
        target = bench_analyze.TARGET_IN_PROCESS
        allowed = total * args.kernels_per_s / target
        rest = total - interpreter
        print(f"at {args.kernels_per_s:,.0f} kernels per CPU s, {target:,} allows {allowed / 1e6:,.0f} M "
              f"instructions a pass; with the other components as they are ({rest / 1e6:,.0f} M) the "
              f"interpreter's share must fall from {interpreter / 1e6:,.0f} M to {(allowed - rest) / 1e6:,.0f} M "
              f"({(1 - (allowed - rest) / interpreter) * 100:.0f}% less)")


if __name__ == "__main__":
    main()
