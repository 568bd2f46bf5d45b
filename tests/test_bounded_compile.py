"""Compilation in compile processes under a time and memory limit: what the batch layer's CPU half and
`profile` use, so that a candidate that sends the compiler into a loop cannot hang the caller."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from kernelscope.batch import EvalOptions, RunnerEvaluator, load_items
from kernelscope.runner import bounded_compile
from kernelscope.runner.bounded_compile import CompilePool, compile_bounded, compile_bounded_many
from kernelscope.runner.compile import CompileError, compile_kernel

ROOT = Path(__file__).resolve().parents[1]
BOMB = (ROOT / "tests" / "kernels" / "adversarial" / "compile_bomb.cu").read_text()
VECTOR_ADD = ROOT / "examples" / "problems" / "vector_add"
GOOD = ("__global__ void vector_add(const float *a, const float *b, float *c, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }\n")
pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")


@pytest.fixture
def pool(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path / "cache"))   # the compile processes inherit it
    compile_pool = CompilePool()
    yield compile_pool
    compile_pool.close()


def _group_gone(pid: int, patience_s: float = 20.0) -> bool:
    """Whether no process of group `pid` is left (killed grandchildren take a moment to be reaped)."""
    deadline = time.monotonic() + patience_s
    while time.monotonic() < deadline:
        try:
            os.killpg(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_a_good_source_gives_the_cubin_compile_kernel_gives(pool, tmp_path):
    built = compile_bounded(GOOD, "vector_add", arch="sm_90", backend="nvcc", pool=pool)
    direct = compile_kernel(GOOD, "vector_add", arch="sm_90", backend="nvcc", use_cache=False)
    assert (built.kernel, built.lowered_name, built.arch) == (direct.kernel, direct.lowered_name, "sm_90")
    assert built.cubin[:4] == b"\x7fELF" and built.key == direct.key


def test_compile_errors_come_back_with_the_compiler_log(pool):
    with pytest.raises(CompileError) as caught:
        compile_bounded(GOOD.replace("a[i] + b[i]", "a[i] + undefined_name"), "vector_add", arch="sm_90",
                        backend="nvcc", pool=pool)
    assert str(caught.value).startswith("compilation failed") and "undefined_name" in caught.value.log


def test_the_compile_process_runs_under_the_memory_cap(pool):
    compile_bounded(GOOD, "vector_add", arch="sm_90", backend="nvcc", pool=pool)
    [process] = pool._all
    limits = Path(f"/proc/{process._process.pid}/limits").read_text().splitlines()
    [address_space] = [line for line in limits if line.startswith("Max address space")]
    assert address_space.split()[3] == str(bounded_compile.COMPILE_MEMORY_BYTES)


def test_a_compile_bomb_is_stopped_at_its_limit_with_its_process_group_and_the_pool_recovers(pool):
    started = time.process_time()
    with pytest.raises(CompileError, match="took more than 2 s"):
        compile_bounded(BOMB, "vector_add", arch="sm_90", backend="nvcc", timeout_s=2, pool=pool)
    assert time.process_time() - started < 30       # the caller waited; it did not compile
    [process] = pool._all
    assert process._process is None                 # killed, with nvcc and cicc (its group)
    built = compile_bounded(GOOD, "vector_add", arch="sm_90", backend="nvcc", pool=pool)
    assert built.cubin[:4] == b"\x7fELF" and pool.size == 1   # the same slot, a fresh process


def test_the_killed_group_leaves_no_compiler_behind(pool):
    compile_bounded(GOOD, "vector_add", arch="sm_90", backend="nvcc", pool=pool)
    [process] = pool._all
    pid = process._process.pid
    with pytest.raises(CompileError):
        compile_bounded(BOMB, "vector_add", arch="sm_90", backend="nvcc", timeout_s=2, pool=pool)
    assert _group_gone(pid)


def test_many_compile_in_parallel_processes_and_keep_their_order(pool):
    broken = GOOD.replace("a[i] + b[i]", "a[i] + nope")
    sources = [GOOD.replace("a[i] + b[i]", f"a[i] + b[i] * {k}.0f") for k in range(3)]
    built = compile_bounded_many([(sources[0], "vector_add"), (broken, "vector_add"), (sources[1], "vector_add"),
                                  (sources[2], "vector_add")], arch="sm_90", backend="nvcc", workers=2, pool=pool)
    assert [type(b).__name__ for b in built] == ["CompiledKernel", "CompileError", "CompiledKernel", "CompiledKernel"]
    assert len({b.key for b in built if not isinstance(b, CompileError)}) == 3
    assert 1 <= pool.size <= 2


def test_batch_prepare_turns_a_compile_bomb_into_a_compile_error_record(monkeypatch, tmp_path):
    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path / "cache"))
    [item] = load_items(VECTOR_ADD)[:1]
    evaluator = RunnerEvaluator(EvalOptions(arch="sm_90", backend="nvcc", compile_timeout_s=2))
    prepared = evaluator.prepare(type(item)(index=0, spec=item.spec, source=BOMB, kernel="vector_add", label="bomb"))
    assert prepared.finished and prepared.result.flags == ["compile_error"]
    assert prepared.result.error == "compilation took more than 2 s"
    good = evaluator.prepare(type(item)(index=1, spec=item.spec, source=GOOD, kernel="vector_add", label="good"))
    assert not good.finished and good.compiled.cubin[:4] == b"\x7fELF"


def test_the_default_compile_timeout_comes_from_the_environment(monkeypatch):
    import importlib

    monkeypatch.setenv("KERNELSCOPE_COMPILE_TIMEOUT_S", "7.5")
    try:
        assert importlib.reload(bounded_compile).COMPILE_TIMEOUT_S == 7.5
    finally:
        monkeypatch.delenv("KERNELSCOPE_COMPILE_TIMEOUT_S")
        importlib.reload(bounded_compile)


def test_profile_stops_a_compile_bomb_before_ncu_starts(monkeypatch, tmp_path):
    from kernelscope.errors import KernelscopeError
    from kernelscope.runner import load_spec
    from kernelscope.runner import profile as profile_module

    monkeypatch.setenv("KERNELSCOPE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(profile_module, "require_gpu", lambda: None)     # compilation needs no GPU
    ran = []
    monkeypatch.setattr(profile_module.subprocess, "run", lambda *a, **k: ran.append(a))
    with pytest.raises(KernelscopeError, match="bomb: compilation took more than 2 s"):
        profile_module.profile(load_spec(VECTOR_ADD), [profile_module.Candidate("bomb", BOMB, "vector_add")],
                               arch="sm_90", backend="nvcc", ncu="/bin/true", compile_timeout_s=2)
    assert ran == []
