"""Launch plans on the RL side: prompts teach them, the static reward analyses every launch with its
own block, scores the plan as a whole and reports a broken plan as the candidate's build error."""

from __future__ import annotations

from pathlib import Path

from kernelscope.rl.feedback import build_feedback
from kernelscope.rl.prompts import task_statement
from kernelscope.rl.reward import RewardConfig, UnifiedReward
from kernelscope.rl.tasks import load_task

ROOT = Path(__file__).resolve().parents[1]
TASK = load_task(ROOT / "corpus" / "col_sum")
TWO_PASS = (ROOT / "corpus" / "col_sum" / "plans" / "two_pass.cu").read_text()


def answer(source: str) -> str:
    return f"```cuda\n{source}```"


def reward(source: str):
    return UnifiedReward(RewardConfig(mode="static"))(answer(source), TASK)


def test_the_prompt_teaches_plans_with_the_tasks_own_names():
    statement = task_statement(TASK)
    assert "/* kernelscope:plan" in statement and "[[launch]]" in statement and "[[scratch]]" in statement
    assert '"x", "out", "rows", "cols"' in statement


def test_a_plan_passes_the_static_gates_with_each_launch_analysed_at_its_own_block():
    analysed = []

    def analyze(code, *, block=None, bindings=None):
        from kernelscope.rl.reward import default_analyze

        analysed.append(block)
        return default_analyze(code, block=block, bindings=bindings)

    scorer = UnifiedReward(RewardConfig(mode="static"), analyze_fn=analyze)
    scorer.work_cap.work_bounds(TASK)     # the yardstick analyses the corpus implementations once per problem
    analysed.clear()
    result = scorer(answer(TWO_PASS), TASK)
    assert result.outcome == "ok" and result.band == "pass", (result.hacks, result.errors)
    assert [l["kernel"] for l in result.launches] == ["col_sum_strips", "col_sum_finish"]
    assert analysed == [(256, 1, 1)]              # both launches use 256 threads: analysed once
    assert result.launches[0]["threads"] > result.launches[1]["threads"]
    assert result.analysis["name"] == "col_sum_strips"


def test_inputs_read_by_any_launch_count_for_the_plan():
    # the finishing kernel never reads x; the plan does, through its first launch
    assert "ignores_inputs" not in reward(TWO_PASS).hacks
    lazy = TWO_PASS.replace("a0 += __ldg(&x[(long)r * cols + c]);", "a0 += 1.0f;").replace(
        "a1 += __ldg(&x[(long)(r + 1) * cols + c]);", "").replace(
        "a2 += __ldg(&x[(long)(r + 2) * cols + c]);", "").replace(
        "a3 += __ldg(&x[(long)(r + 3) * cols + c]);", "").replace("a0 += x[(long)r * cols + c];", "a0 += 1.0f;")
    assert reward(lazy).hacks.get("ignores_inputs")


def test_a_broken_plan_is_a_build_error_and_the_feedback_says_why():
    broken = TWO_PASS.replace('args = ["partial", "out", "cols", "chunks"]', 'args = ["partial", "cols", "chunks"]')
    result = reward(broken)
    assert result.outcome == "compile_error" and result.total < 0
    assert "output(s) out" in build_feedback(result, TASK)


def test_feedback_on_a_passing_plan_names_the_launch_it_is_about():
    text = build_feedback(reward(TWO_PASS), TASK)
    assert "launch #1 of your plan (col_sum_strips" in text


def test_a_one_launch_plan_scores_as_the_problem_launched_that_way_would():
    """A one-launch plan is the kernel with another grid and block (what the corpus's implementations
    carry): the static reward analyses it with that launch, caps its work and checks its arguments
    exactly as for a source without a plan whose problem's [launch] were the plan's."""
    from dataclasses import replace

    from kernelscope.runner.plan import plan_text

    task = load_task(ROOT / "corpus" / "black_scholes")
    implementation = next(i for i in task.implementations if i["file"] == "vectorized.cu")
    with_plan = task.implementation_source("vectorized.cu")
    without = with_plan[:with_plan.index("/* kernelscope:plan")]
    assert plan_text(with_plan) and plan_text(without) is None
    score = UnifiedReward(replace(RewardConfig(mode="static"), compile_check="off"))
    planned = score(answer(with_plan), task)
    launched = score(answer(without), task.for_implementation(implementation))
    problem_launch = score(answer(without), task)
    assert planned.outcome == launched.outcome == "ok"
    assert planned.total == launched.total and planned.components == launched.components
    assert problem_launch.total != planned.total      # the grid matters: the plan is what was scored


def test_tasks_refuse_launch_overrides_in_the_spec(tmp_path):
    import pytest

    from kernelscope.errors import InputError

    spec = (ROOT / "corpus" / "gelu" / "spec.toml").read_text()
    (tmp_path / "gelu").mkdir()
    (tmp_path / "gelu" / "spec.toml").write_text(spec.replace('strategy = "naive" }', 'strategy = "naive", launch = { grid = ["1"] } }'))
    with pytest.raises(InputError, match="no longer read"):
        load_task(tmp_path / "gelu")
