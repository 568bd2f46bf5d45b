"""nvcc runs on untrusted source under a time and memory limit; past it, `--registers auto` uses the
estimate and says why. The compilers here are stand-ins on PATH that hang or allocate without end,
so the tests need no CUDA toolkit and show the limit acting on the real subprocess."""

from __future__ import annotations

import json
import os
import resource
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kernelscope import resources
from kernelscope.limits import LimitExceeded, run_limited

KERNEL = "__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n"


def _fake_nvcc(folder: Path, body: str) -> Path:
    folder.mkdir(exist_ok=True)
    script = folder / "nvcc"
    script.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return folder


HANGS_WITH_A_CHILD = """
    import subprocess, sys, time
    # nvcc's own children (cicc, ptxas) must be stopped with it: this one records its pid and sleeps
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    open(sys.argv[-1] + ".child", "w").write(str(child.pid))
    time.sleep(600)
"""

ALLOCATES = """
    blocks = []
    while True:
        blocks.append(bytearray(64 * 2 ** 20))
"""


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path / "cache"))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie waiting for its parent is stopped already
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "State:\tZ" in status.read_text())


def test_a_hanging_compiler_and_its_children_are_stopped_at_the_time_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", f"{_fake_nvcc(tmp_path / 'bin', HANGS_WITH_A_CHILD)}:{os.environ['PATH']}")
    source = tmp_path / "k.cu"
    with pytest.raises(LimitExceeded, match="within its 2 s limit"):
        run_limited(["nvcc", str(source)], what="nvcc", timeout_s=2, memory_bytes=None)
    child = int((tmp_path / "k.cu.child").read_text())
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child), "the compiler's child outlived the limit"


def test_a_compiler_that_allocates_without_end_is_stopped_at_the_memory_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", f"{_fake_nvcc(tmp_path / 'bin', ALLOCATES)}:{os.environ['PATH']}")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    with pytest.raises(LimitExceeded, match="memory limit"):
        run_limited(["nvcc"], what="nvcc", timeout_s=60, memory_bytes=512 * 2 ** 20)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert peak_kb <= max(before, 600 * 1024), f"the child grew to {peak_kb} KB"


def test_an_ordinary_failure_is_not_mistaken_for_a_limit(tmp_path):
    done = run_limited([sys.executable, "-c", "import sys; print('error: undefined'); sys.exit(3)"],
                       what="tool", timeout_s=30, memory_bytes=512 * 2 ** 20)
    assert done.returncode == 3 and "undefined" in done.stdout


def test_ptxas_usage_reports_the_limit_it_hit(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", f"{_fake_nvcc(tmp_path / 'bin', HANGS_WITH_A_CHILD)}:{os.environ['PATH']}")
    with pytest.raises(LimitExceeded, match="nvcc compiling slow.cu did not finish within its 1 s limit"):
        resources.ptxas_usage(KERNEL, filename="slow.cu", timeout=1)


def test_registers_auto_falls_back_to_the_estimate_with_a_note_when_nvcc_is_over_its_limit(tmp_path):
    bin_dir = _fake_nvcc(tmp_path / "bin", ALLOCATES)
    source = tmp_path / "k.cu"
    source.write_text(KERNEL)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "KERNELSCOPE_NVCC_MEMORY_MB": "256",
           "KERNELSCOPE_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "kernelscope", "analyze", "--format", "json",
                           "--registers", "auto", str(source)], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    [file_doc] = json.loads(done.stdout)["files"]
    [kernel] = file_doc["kernels"]
    assert kernel["occupancy"]["registers_source"] == "estimate"
    notes = " ".join(file_doc["notes"] + [e["message"] for e in file_doc["errors"]])
    assert "registers estimated" in notes and "256 MB memory limit" in notes
