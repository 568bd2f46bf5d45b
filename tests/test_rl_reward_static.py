"""The static-only reward with the real analyzer (no GPU): the runner's adversarial kernels that betray
themselves in the source land at the floor, honest kernels pass, and structure orders implementations."""

from pathlib import Path

import pytest

from kernelscope.rl.reward import RewardConfig, UnifiedReward
from kernelscope.rl.tasks import load_task

ADVERSARIAL = Path(__file__).parent / "kernels" / "adversarial"
pytest.importorskip("tree_sitter_cuda")


@pytest.fixture(scope="module")
def task():
    return load_task(ADVERSARIAL / "spec.toml")


@pytest.fixture(scope="module")
def reward():
    return UnifiedReward(RewardConfig(mode="static"))


@pytest.mark.parametrize("name, hack", [("constant", "ignores_inputs"), ("skip_work", "writes_nothing"),
                                        ("input_echo", "ignores_inputs"), ("host_code", "host_code")])
def test_adversarial_kernels_visible_in_the_source_get_the_floor(task, reward, name, hack):
    result = reward(f"```cuda\n{(ADVERSARIAL / f'{name}.cu').read_text()}```", task)
    assert result.outcome == "hack" and result.total == reward.config.hack
    assert hack in result.hacks


def test_a_kernel_caching_answers_in_a_device_global_is_left_to_the_runner(task, reward):
    # the text of first_input_only.cu is that of an honest grid-wide counter plus a cache: telling them
    # apart takes a run on fresh inputs (the runner's state_carried), so static mode does not punish it
    result = reward(f"```cuda\n{(ADVERSARIAL / 'first_input_only.cu').read_text()}```", task)
    assert result.total > reward.config.hack and "persistent_state" not in result.hacks


def test_the_honest_kernel_passes_statically(task, reward):
    result = reward(f"```cuda\n{(ADVERSARIAL / 'correct.cu').read_text()}```", task)
    assert result.outcome == "ok" and result.total > 0, result.hacks
    assert result.components["structure_coalescing"] == pytest.approx(1.0)


def test_renamed_parameters_score_exactly_like_the_original(task, reward):
    # the harness passes arguments by position: x, y, z are the problem's a, b, c
    honest = (ADVERSARIAL / "correct.cu").read_text()
    renamed = (honest.replace("const float *a, const float *b, float *c", "const float *x, const float *y, float *z")
               .replace("c[i] = a[i] + b[i];", "z[i] = x[i] + y[i];"))
    assert renamed != honest and "a[i]" not in renamed
    original, result = reward(f"```cuda\n{honest}```", task), reward(f"```cuda\n{renamed}```", task)
    assert result.outcome == "ok" and not result.hacks
    assert result.total == pytest.approx(original.total)


def test_a_strided_rewrite_of_the_honest_kernel_scores_lower(task, reward):
    honest = (ADVERSARIAL / "correct.cu").read_text()
    strided = honest.replace("int i = blockIdx.x * blockDim.x + threadIdx.x;",
                             "int i = (threadIdx.x * gridDim.x + blockIdx.x);")
    assert strided != honest
    good, bad = reward(f"```cuda\n{honest}```", task), reward(f"```cuda\n{strided}```", task)
    assert bad.components["structure_coalescing"] < good.components["structure_coalescing"]
    assert bad.total < good.total


# The verdicts the runner's GPU tests pin down for each adversarial kernel (tests/gpu/test_runner_gpu.py).
RUNNER_VERDICTS = {"skip_work": "unwritten_output", "input_echo": "input_echo", "half_write": "unwritten_output",
                   "out_of_bounds": "out_of_bounds_write", "first_input_only": "mismatch",
                   "uninitialised": "mismatch", "constant": "constant_output", "illegal_address": "fault",
                   "infinite_loop": "timeout", "host_code": "rejected"}


def runner_result(flag: str):
    from kernelscope.runner.results import RunResult, SizeVerdict

    result = RunResult(problem="vector_add_adversarial", kernel="vector_add", compiled=flag != "rejected",
                       flags=[flag], sizes=[SizeVerdict(size="small", correct=False, trials=3, flags=[flag])])
    return result.finish()


@pytest.mark.parametrize("name", sorted(RUNNER_VERDICTS))
def test_every_adversarial_kernel_lands_in_the_fail_band_in_full_mode(task, name):
    reward = UnifiedReward(RewardConfig(mode="full"),
                           run_fn=lambda code, kernel, t: runner_result(RUNNER_VERDICTS[name]))
    result = reward(f"```cuda\n{(ADVERSARIAL / f'{name}.cu').read_text()}```", task)
    assert result.band == "fail" and result.total < 0, (result.outcome, result.hacks)
    if RUNNER_VERDICTS[name] != "mismatch":
        assert result.total == reward.config.hack
