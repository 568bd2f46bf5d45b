"""Static mode's compile gate: undeclared names and host-library calls fail it, honest kernels pass."""

import shutil

import pytest

from kernelscope.errors import UsageError
from kernelscope.rl.compile_gate import CompileGate, resolve_backend
from kernelscope.rl.feedback import build_feedback
from kernelscope.rl.reward import RewardConfig, UnifiedReward
from kernelscope.rl.tasks import load_task
from test_rl_support import candidate, fake_analyze, make_problem

needs_compiler = pytest.mark.skipif(resolve_backend("auto") == "off", reason="neither NVRTC (CuPy) nor nvcc here")


@pytest.fixture
def task(tmp_path):
    return load_task(make_problem(tmp_path))


@pytest.fixture(scope="module")
def gate():
    return CompileGate("auto", timeout_s=120)


def static_reward(gate):
    return UnifiedReward(RewardConfig(mode="static"), analyze_fn=fake_analyze, compile_fn=gate)


@needs_compiler
def test_an_honest_kernel_compiles(gate, task):
    result = static_reward(gate)(candidate(), task)
    assert result.outcome == "ok" and result.total > 0


@needs_compiler
@pytest.mark.parametrize("body, message", [
    ("c[i] = a[i] + b[i] + bias;", "undefined"),
    ("c[i] = a[i] + b[i] * rand();", "rand"),
])
def test_undeclared_names_and_host_library_calls_fail_the_gate(gate, task, body, message):
    # (no #include <cstdlib>: the runner's source policy refuses every include but the CUDA headers)
    code = candidate().replace("c[i] = a[i] + b[i];", body)
    result = static_reward(gate)(code, task)
    assert result.outcome == "compile_error" and result.total == RewardConfig().compile_error
    assert message in result.compile_log
    assert message in build_feedback(result, task)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc")
def test_a_compile_that_takes_too_long_fails_instead_of_hanging():
    slow = CompileGate("nvcc", timeout_s=0.01)
    verdict = slow(candidate(fenced=False), "vector_add")
    assert not verdict.ok and "did not finish" in verdict.log


def test_the_gate_can_be_switched_off_and_refuses_unknown_backends():
    assert CompileGate("off")("this is not CUDA").ok
    with pytest.raises(UsageError):
        resolve_backend("clang")


def test_the_real_analyzer_brings_the_real_gate_in_static_mode():
    assert isinstance(UnifiedReward(RewardConfig(mode="static")).compile_fn, CompileGate)
    assert UnifiedReward(RewardConfig(mode="static"), analyze_fn=fake_analyze).compile_fn is None
    assert UnifiedReward(RewardConfig(mode="full")).compile_fn is None  # the runner compiles in full mode


def test_nvrtc_fails_the_gate_only_for_the_compilers_own_errors(monkeypatch):
    # CuPy may be absent here: the runner's compile_kernel stands in, raising as it does
    from kernelscope.rl import compile_gate
    from kernelscope.runner import compile as runner_compile

    def compile_kernel(code, kernel, **options):
        if "broken" in code:
            raise runner_compile.CompileError("compilation failed:\nerror: identifier x", "error: identifier x")
        raise runner_compile.CompileError(f"kernel {kernel!r} is not defined in the source")  # a template

    monkeypatch.setattr(runner_compile, "compile_kernel", compile_kernel)
    assert not compile_gate._nvrtc("broken", "k", 5).ok
    assert compile_gate._nvrtc("template <int B> __global__ void k() {}", "k", 5).ok
