import pytest

from kernelscope.rl.feedback import build_feedback
from kernelscope.rl.reward import RewardConfig, UnifiedReward
from kernelscope.rl.tasks import load_task
from test_rl_support import candidate, fake_analyze, fake_run, make_problem


@pytest.fixture
def task(tmp_path):
    return load_task(make_problem(tmp_path))


@pytest.fixture
def reward():
    return UnifiedReward(RewardConfig(mode="full"), analyze_fn=fake_analyze, run_fn=fake_run)


def test_missing_code_asks_for_a_cuda_block_with_the_kernel_name(reward, task):
    message = build_feedback(reward("Use shared memory.", task), task)
    assert "```cuda" in message and "vector_add" in message


def test_compile_errors_quote_the_compiler(reward, task):
    message = build_feedback(reward(candidate("run: compile_error"), task), task)
    assert 'identifier "x" is undefined' in message and "does not compile" in message


def test_syntax_errors_give_the_line(reward, task):
    message = build_feedback(reward(candidate("syntax error here"), task), task)
    assert "line 2" in message and "unexpected token" in message


def test_wrong_output_says_where_and_by_how_much(reward, task):
    message = build_feedback(reward(candidate("run: incorrect"), task), task)
    assert "size small: 7 elements wrong" in message and "size large" not in message
    assert "first in c at index [13]" in message and "max abs error 0.5" in message


def test_rejection_names_the_hack(reward, task):
    message = build_feedback(reward(candidate("run: flag=input_echo"), task), task)
    assert message.startswith("Rejected") and "input echo" in message


def test_passing_kernel_gets_its_speed_and_the_worst_structural_problem_first(reward, task):
    message = build_feedback(reward(candidate("shape: strided", "run: speedup=1.3"), task), task)
    assert "1.30x" in message and "(1 ms; moving its inputs and outputs once" in message and "0.25 ms" in message
    assert "32 sectors per warp request" in message and "consecutive" in message


def test_lint_findings_and_low_occupancy_become_hints(reward, task):
    lint = build_feedback(reward(candidate("lint: error", "run: speedup=1.0"), task), task)
    occupancy = build_feedback(reward(candidate("shape: low_occupancy", "run: speedup=1.0"), task), task)
    assert "KS201" in lint and "line 4" in lint
    assert "occupancy is 12%" in occupancy and "registers" in occupancy


def test_measured_counters_are_quoted_when_given(reward, task):
    message = build_feedback(reward(candidate("run: speedup=2"), task), task, counters={"dram__bytes_read.sum": 1.5e9})
    assert "dram__bytes_read.sum = 1.5e+09" in message


def test_feedback_stays_short(task):
    from test_rl_support import FakeRun

    noisy_log = "\n".join(f"kernel.cu({n}): error: something long and repetitive went wrong" for n in range(200))
    noisy = UnifiedReward(RewardConfig(mode="full"), analyze_fn=fake_analyze,
                          run_fn=lambda code, kernel, t: FakeRun(compiled=False, compile_log=noisy_log))
    result = noisy(candidate(), task)
    assert build_feedback(result, task).count("error: something") == 8
    assert len(build_feedback(result, task, max_chars=300)) <= 300


def test_an_error_finding_leads_even_when_bigger_performance_problems_would_fill_the_hints(reward, task):
    # a strided kernel with a bank conflict and low occupancy has three hints of larger magnitude;
    # the divergent barrier (an error) must still be told, and first
    result = reward(candidate("shape: strided", "lint: error", "run: speedup=1.0"), task)
    result.diagnostics.append({"rule": "KS103", "severity": "warning", "line": 7, "column": 1,
                               "message": "register spill", "kernel": "vector_add"})
    result.analysis = dict(result.analysis, occupancy={"theoretical_occupancy": 0.1, "limiter": "registers"})
    message = build_feedback(result, task)
    hints = [line for line in message.splitlines() if line.startswith("- ")]
    assert message.splitlines()[1].startswith("Fix first")
    assert "KS201" in hints[0] and len(hints) >= 3
