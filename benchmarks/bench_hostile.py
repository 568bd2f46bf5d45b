"""How `kernelscope analyze` scales on pathological inputs: a table per pattern, sizes 1k to 50k.

Each pattern is a short piece of source repeated N times (or nested N deep). Every size is analysed
in a fresh process (`analyze --format json --registers estimate`), and its CPU time (user + system,
from os.wait4) and peak resident memory are printed; CPU time is what a machine busy with other work
does not inflate. The cost of starting the command is measured on a one-kernel file in the same run
and subtracted, so that the column "per 1k" (net CPU time per thousand repetitions) is flat when the
growth is linear; "x vs 1k" compares the net time at N with N/1000 times the net time at 1k, i.e. 1.0
is linear, 2.0 twice as slow as linear.

Patterns that were exponential or quadratic before the expression DAG (i = i + i, selects, if/else
merges, shuffles) took 46 s and more at 24 repetitions.

    python benchmarks/bench_hostile.py [--sizes 1000,2000,5000,10000,20000,50000] [--patterns doubling,...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

MEMORY_LIMIT_BYTES = 4 * 1024 ** 3


def _statements(body: str, n: int) -> str:
    return (f"__global__ void k(float* a, int n)\n{{\n    int i = threadIdx.x;\n{body * n}"
            "    if (i < n) a[i] = 1.0f;\n}\n")


def _store(expr: str) -> str:
    return (f"__global__ void k(float* a, int n)\n{{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            f"    if (i < n) a[i] = {expr};\n}}\n")


PATTERNS = {
    "doubling": ("i = i + i; x N", lambda n: _statements("    i = i + i;\n", n)),
    "selects": ("i = i > n ? i : i + 1; x N", lambda n: _statements("    i = i > n ? i : i + 1;\n", n)),
    "if_else": ("if (i > n) i = i + 1; else i = i * 2; x N",
                lambda n: _statements("    if (i > n) i = i + 1; else i = i * 2;\n", n)),
    "min_calls": ("i = min(i, i + 1); x N", lambda n: _statements("    i = min(i, i + 1);\n", n)),
    "shuffles": ("v += __shfl_down_sync(0xffffffff, v, 1); x N",
                 lambda n: "__global__ void k(float* a)\n{\n    float v = a[threadIdx.x];\n" +
                 "    v += __shfl_down_sync(0xffffffff, v, 1);\n" * n + "    a[threadIdx.x] = v;\n}\n"),
    "terms": ("a[i + 0] + a[i + 1] + ... (N terms)", lambda n: _store(" + ".join(f"a[i + {t}]" for t in range(n)))),
    "nested_sum": ("n + (n + (... N deep ...))", lambda n: _store("n + (" * n + "n" + ")" * n)),
    "string": ("a string literal of N x 160 bytes",
               lambda n: f'const char* s = "{"x" * (160 * n)}";\n' + _store("1.0f")),
}


def measure(source: str, folder: Path) -> tuple[float, float, int]:
    """(CPU seconds, peak MB, exit status) of analysing `source` in a fresh process."""
    path = folder / "input.cu"
    path.write_text(source)
    command = [sys.executable, "-m", "kernelscope", "analyze", "--format", "json", "--registers", "estimate",
               str(path)]
    with open(os.devnull, "wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE,
                                   preexec_fn=lambda: __import__("resource").setrlimit(
                                       __import__("resource").RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES)))
        stderr = process.stderr.read()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        process.stderr.close()
    if process.returncode not in (0, 1):
        print(f"    (exit {process.returncode}: {stderr.decode(errors='replace').strip()[:120]})")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, process.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,2000,5000,10000,20000,50000")
    parser.add_argument("--patterns", default=",".join(PATTERNS))
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="kernelscope-hostile-") as work:
        folder = Path(work)
        startups = [measure(_store("1.0f"), folder)[0] for _ in range(3)]
        startup = sorted(startups)[1]
        print(f"start-up (one small kernel, median of 3): {startup:.2f} s CPU; load average {os.getloadavg()[0]:.1f}")
        for name in args.patterns.split(","):
            title, make = PATTERNS[name]
            print(f"\n{name}: {title}")
            print(f"{'N':>7} {'CPU s':>7} {'net s':>7} {'per 1k':>7} {'x vs 1k':>8} {'peak MB':>8} {'exit':>5}")
            first = None
            for n in sizes:
                cpu, peak, code = measure(make(n), folder)
                net = max(cpu - startup, 0.0)
                per_k = net / (n / 1000)
                if first is None:
                    first = per_k
                # below 20 ms of net time at 1k the ratio would only show timer noise
                ratio = f"{per_k / first:.2f}" if first >= 0.02 else "-"
                print(f"{n:>7} {cpu:>7.2f} {net:>7.2f} {per_k:>7.3f} {ratio:>8} {peak:>8.0f} {code:>5}", flush=True)


if __name__ == "__main__":
    main()
