"""The runner on a real GPU: honest kernels pass, each adversarial kernel is caught, and the
evaluator keeps working after every one of them (same pool, workers replaced where needed)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from kernelscope.runner import gpu_available, load_spec

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not gpu_available(), reason="needs an NVIDIA GPU with CuPy")]

ROOT = Path(__file__).resolve().parents[2]
ADVERSARIAL = ROOT / "tests" / "kernels" / "adversarial"
VECTOR_ADD = ROOT / "examples" / "problems" / "vector_add"


@pytest.fixture(scope="module")
def pool():
    from kernelscope.runner import WorkerPool

    with WorkerPool() as workers:
        yield workers


@pytest.fixture(scope="module")
def spec():
    return load_spec(ADVERSARIAL)


def _evaluate(spec, name, pool, **kwargs):
    from kernelscope.runner import evaluate

    source = (ADVERSARIAL / name).read_text()
    return evaluate(spec, source, "vector_add", pool=pool, repeats=kwargs.pop("repeats", 10), **kwargs)



def _assert_healthy(spec, pool):
    result = _evaluate(spec, "correct.cu", pool)
    assert result.correct, result.to_json()
    assert result.time_ms and result.time_ms > 0


def test_example_implementations_are_correct_and_timed(pool):
    from kernelscope.runner import evaluate

    problem = load_spec(VECTOR_ADD)
    for impl in problem.implementations:
        result = evaluate(problem, problem.resolve(impl.file).read_text(), impl.kernel,
                          pool=pool)
        assert result.correct, result.to_json()
        assert [v.size for v in result.sizes] == list(problem.sizes)
        assert all(v.time_ms > 0 and v.reference_time_ms > 0 and v.speedup > 0 for v in result.sizes)
        assert all(0 < v.dram_floor_ms < v.time_ms for v in result.sizes)
        assert "implausible_speedup" not in result.flags
        assert result.registers and result.registers > 0


@pytest.mark.parametrize("kernel_file, expected_flags", [
    ("skip_work.cu", {"unwritten_output"}),
    ("input_echo.cu", {"input_echo"}),
    ("half_write.cu", {"unwritten_output"}),
    ("out_of_bounds.cu", {"out_of_bounds_write"}),
    ("far_write.cu", {"out_of_bounds_write", "fault"}),        # 280 KB past the output
    ("very_far_write.cu", {"fault", "out_of_bounds_write"}),   # 64 MB past: an unmapped guard page
    ("input_mutation.cu", {"input_mutated"}),
    ("first_input_only.cu", {"state_carried"}),                # its cache lives in a __device__ array
    ("stops_when_timed.cu", {"state_carried"}),
    ("managed_counter.cu", {"state_carried"}),
    ("uninitialised.cu", {"mismatch"}),
    ("rare_wrong.cu", {"mismatch", "timing_divergence"}),     # wrong on one input set in ten
    ("constant.cu", {"constant_output"}),
    ("illegal_address.cu", {"fault"}),
])
def test_adversarial_kernel_is_caught_and_evaluator_stays_healthy(spec, pool, kernel_file, expected_flags):
    result = _evaluate(spec, kernel_file, pool)
    assert not result.correct
    assert expected_flags & set(result.flags), result.to_json()
    _assert_healthy(spec, pool)


def test_globals_are_restored_so_a_cached_answer_never_reaches_a_timed_launch(spec, pool):
    result = _evaluate(spec, "first_input_only.cu", pool)
    assert result.sizes[0].first_mismatch is None       # restored before every launch: it always computes
    assert "state_carried" in result.flags and "timing_divergence" not in result.flags


def test_matmul_that_caches_its_answer_is_caught(pool):
    from kernelscope.runner import evaluate

    problem = load_spec(ADVERSARIAL / "matmul")
    honest = evaluate(problem, (ADVERSARIAL / "matmul" / "honest.cu").read_text(), "matmul", pool=pool, repeats=10)
    assert honest.correct and not honest.flags, honest.to_json()
    assert all(v.compute_floor_ms and 0 < v.compute_floor_ms < v.time_ms for v in honest.sizes)
    cached = evaluate(problem, (ADVERSARIAL / "matmul" / "cached.cu").read_text(), "matmul", pool=pool, repeats=10)
    assert not cached.correct and "state_carried" in cached.flags, cached.to_json()
    assert cached.sizes[0].first_mismatch is None       # restored before every launch, it computed every time


def test_compute_floor_flags_a_kernel_faster_than_peak_for_the_declared_flops(pool):
    from kernelscope.runner import evaluate

    problem = load_spec(ADVERSARIAL / "matmul" / "spec_inflated_flops.toml")
    result = evaluate(problem, (ADVERSARIAL / "matmul" / "honest.cu").read_text(), "matmul", pool=pool, repeats=10)
    assert "implausible_speedup" in result.flags and result.correct     # a warning, not a failure
    assert any(v.time_ms < v.compute_floor_ms for v in result.sizes)


@pytest.mark.parametrize("kernel_file", ["correct.cu", "self_resetting_counter.cu"])
def test_honest_kernels_pass_with_no_flag(spec, pool, kernel_file):
    result = _evaluate(spec, kernel_file, pool)
    assert result.correct and not result.flags, result.to_json()


def test_a_declared_scratch_counter_is_zeroed_before_every_launch(pool):
    from kernelscope.runner import evaluate

    problem = load_spec(ADVERSARIAL / "spec_scratch.toml")
    result = evaluate(problem, (ADVERSARIAL / "scratch_ticket.cu").read_text(), "vector_add", pool=pool, repeats=10)
    assert result.correct and not result.flags, result.to_json()


@pytest.mark.parametrize("kernel_file", ["clock_parenthesised.cu", "clock_macro.cu", "globaltimer_split.cu",
                                         "malloc_parenthesised.cu", "launch_macro.cu", "include_local.cu"])
def test_policy_bypasses_are_rejected(spec, pool, kernel_file):
    result = _evaluate(spec, kernel_file, pool)
    assert not result.compiled and "rejected" in result.flags


def test_compilation_that_never_ends_is_a_compile_error_and_the_pool_recovers(spec, pool):
    result = _evaluate(spec, "compile_bomb.cu", pool, compile_timeout_s=5)
    assert not result.compiled and "compile_error" in result.flags and "more than" in result.error
    _assert_healthy(spec, pool)


def test_device_printf_never_reaches_the_batch_results_stream(tmp_path):
    import json
    import subprocess
    import sys

    items = tmp_path / "items.jsonl"
    items.write_text(json.dumps({"spec": str(ADVERSARIAL / "spec.toml"), "file": str(ADVERSARIAL / "printf_forge.cu"),
                                 "kernel": "vector_add", "id": "printer"}) + "\n")
    done = subprocess.run([sys.executable, "-m", "kernelscope", "run", "--batch", str(items), "--format", "json",
                           "--repeats", "5"], capture_output=True, text=True, timeout=300)
    records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert [r["candidate"] for r in records] == ["printer"] and records[0]["correct"] is True


def test_hanging_kernel_times_out_and_worker_is_replaced(spec, pool):
    before = pool.pids
    result = _evaluate(spec, "infinite_loop.cu", pool, timeout_s=8)
    assert not result.correct and "timeout" in result.flags
    _assert_healthy(spec, pool)
    assert pool.pids != before


def test_host_code_is_rejected_before_compiling(spec, pool):
    result = _evaluate(spec, "host_code.cu", pool)
    assert not result.compiled and "rejected" in result.flags
    assert "host code" in result.error


def test_nvcc_backend_gives_the_same_verdict(spec, pool):
    result = _evaluate(spec, "correct.cu", pool, backend="nvcc")
    assert result.correct
    wrong = _evaluate(spec, "half_write.cu", pool, backend="nvcc")
    assert "unwritten_output" in wrong.flags


def test_cli_run_reports_json_and_exit_status(tmp_path):
    from click.testing import CliRunner

    from kernelscope.cli import cli

    out = tmp_path / "run.json"
    good = CliRunner().invoke(cli, ["run", str(ADVERSARIAL), "-c", f"{ADVERSARIAL / 'correct.cu'}:vector_add",
                                    "--format", "json", "-o", str(out), "--repeats", "5"])
    assert good.exit_code == 0, good.output
    import json

    document = json.loads(out.read_text())
    assert document["results"][0]["correct"] is True
    bad = CliRunner().invoke(cli, ["run", str(ADVERSARIAL), "-c", str(ADVERSARIAL / "skip_work.cu"),
                                   "--format", "csv"])
    assert bad.exit_code == 1
    assert "unwritten_output" in bad.output


@pytest.mark.skipif(shutil.which("ncu") is None, reason="needs Nsight Compute")
def test_profile_measures_coalesced_loads_for_the_naive_kernel():
    from kernelscope.runner.profile import Candidate, profile

    problem = load_spec(VECTOR_ADD)
    naive = problem.implementations[0]
    result = profile(problem, [Candidate("naive", problem.resolve(naive.file).read_text(), naive.kernel)],
                     sizes=["large"])
    row = result.frame.iloc[0]
    # one float per lane: 128 contiguous bytes per warp request = 4 sectors (docs/json-schema.md: sectors_per_request)
    assert row["measured_ld_sectors_per_request"] == pytest.approx(4.0, rel=0.05)
    # both inputs must come from DRAM (ncu flushes caches); the output may still sit in the 60 MB L2
    assert row["dram__bytes_read.sum"] >= 2 * 4 * 4194304 * 0.95
    assert result.verdicts[0][0]["correct"] is True
    if os.environ.get("KERNELSCOPE_FIXTURE_OUT"):
        Path(os.environ["KERNELSCOPE_FIXTURE_OUT"]).write_text(result.csv_text)


def test_reference_kernel_spec_verifies_and_gives_a_speedup(pool):
    from kernelscope.runner import evaluate

    problem = load_spec(ADVERSARIAL / "kernel_reference")
    good = evaluate(problem, (ADVERSARIAL / "correct.cu").read_text(), pool=pool, repeats=10)
    assert good.correct and 0.5 < good.speedup < 2.0     # the same kernel as the reference
    bad = evaluate(problem, (ADVERSARIAL / "half_write.cu").read_text(), pool=pool, repeats=10)
    assert "unwritten_output" in bad.flags
