"""What a fresh `analyze --registers estimate` does not import (shutil, signal, resource, csv: they
are imported where a tool is looked for or run, or where the math-cost table is read), and that the
places that import them late still work: `--registers auto` looks nvcc up, a limited run still
kills and limits, a kernel with math calls still reads the measured table."""

from __future__ import annotations

import sys
from pathlib import Path

from click.testing import CliRunner

from kernelscope import math_costs
from kernelscope.cli import cli
from kernelscope.limits import LimitExceeded, run_limited

from fresh_analyze import modules_of_a_fresh_analyze

ROOT = Path(__file__).resolve().parent.parent
LATE = ("shutil", "signal", "resource", "csv")
PLAIN = "__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n"
WITH_MATH = "__global__ void k(float* a) { a[threadIdx.x] = expf(a[threadIdx.x]) / a[0]; }\n"

def imported_by_a_fresh_analyze(tmp_path, source: str, registers: str = "estimate") -> list:
    path = tmp_path / "k.cu"
    path.write_text(source)
    return [name for name in LATE if name in modules_of_a_fresh_analyze(path, registers)]


def test_a_fresh_estimate_imports_none_of_them(tmp_path):
    assert imported_by_a_fresh_analyze(tmp_path, PLAIN) == []


def test_math_calls_read_the_table_and_auto_looks_for_nvcc(tmp_path):
    assert imported_by_a_fresh_analyze(tmp_path, WITH_MATH) == ["csv"]
    assert "shutil" in imported_by_a_fresh_analyze(tmp_path, PLAIN, registers="auto")


def test_auto_without_nvcc_on_the_path_estimates(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("NVCC", "no-such-nvcc")
    path = tmp_path / "k.cu"
    path.write_text(PLAIN)
    ran = CliRunner().invoke(cli, ["analyze", "--format", "json", "--registers", "auto", str(path)])
    assert ran.exit_code == 0, ran.output
    assert '"source":"estimate"' in ran.stdout.replace(" ", "")


def test_the_math_table_is_read_when_asked():
    rows = (ROOT / "profiles" / "measured" / "math_flops_h200.csv").read_text().splitlines()
    header = rows[0].split(",")
    row = dict(zip(header, next(line for line in rows if line.startswith("sqrtf,fp32,")).split(",")))
    math_costs._table.cache_clear()
    assert math_costs.call_flops("sqrtf", "fp32") == float(row["flops_per_call"]) != math_costs.UNMEASURED_COST


def test_a_limited_run_is_still_stopped_at_its_deadline():
    assert run_limited([sys.executable, "-c", "print('ran')"], what="python", timeout_s=30,
                       memory_bytes=None).stdout == "ran\n"
    try:
        run_limited([sys.executable, "-c", "import time; time.sleep(30)"], what="sleeper", timeout_s=0.5,
                    memory_bytes=None)
    except LimitExceeded as exc:
        assert "sleeper did not finish within its 0.5 s limit" in str(exc)
    else:
        raise AssertionError("the sleeper was not stopped")

