"""No structure credit for work a problem does not need, and no penalty for the work its known parallel
implementations legitimately add (real analyzer, static mode, no GPU)."""

from pathlib import Path

import pytest

from kernelscope.rl.reward import RewardConfig, UnifiedReward
from kernelscope.rl.tasks import load_task

pytest.importorskip("tree_sitter_cuda")
CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@pytest.fixture(scope="module")
def reward():
    from kernelscope.rl.ranker import shipped_ranker_fn

    return UnifiedReward(RewardConfig(mode="static", compile_check="off"), ranker_fn=shipped_ranker_fn())


def fenced(source: str) -> str:
    return f"```cuda\n{source}```"


def test_dead_arithmetic_does_not_raise_the_structure_term(reward):
    task = load_task(CORPUS / "polynomial")
    task = task.for_implementation(next(i for i in task.implementations if i["file"] == "shared_coeffs.cu"))
    honest = (CORPUS / "polynomial" / "shared_coeffs.cu").read_text()
    padded = honest.replace("y[i] = acc;", "float poly = acc * acc * acc + acc;\n    y[i] = acc + 0.0f * poly;")
    assert padded != honest
    before, after = reward(fenced(honest), task), reward(fenced(padded), task)
    assert before.outcome == after.outcome == "ok"
    assert after.components["structure_intensity"] <= before.components["structure_intensity"] + 1e-4  # analysis rounds to 4 places
    assert after.components["structure"] < before.components["structure"]
    assert after.total < before.total
    assert after.components["work_share"] < 1.0 == before.components["work_share"]


@pytest.mark.parametrize("problem", ["tridiagonal", "spmv_ell", "layer_norm"])
def test_known_implementations_doing_more_work_for_parallelism_keep_a_full_work_share(reward, problem):
    task = load_task(CORPUS / problem)
    for implementation in task.implementations:
        result = reward(fenced(task.implementation_source(implementation["file"])),
                        task.for_implementation(implementation))
        assert result.outcome == "ok", (implementation["file"], result.hacks)
        assert result.components["work_share"] == 1.0, implementation["file"]


def test_dead_arithmetic_in_one_launch_of_a_plan_does_not_raise_the_structure_term(reward):
    task = load_task(CORPUS / "col_sum")
    honest = (CORPUS / "col_sum" / "plans" / "two_pass.cu").read_text()
    line = "a0 += __ldg(&x[(long)r * cols + c]);"
    padded = honest.replace(line, line[:-1] + " + 0.0f * (a0 * a0 * a0 * a1 * a2 * a3 + a1 * a2);")
    assert padded != honest
    before, after = reward(fenced(honest), task), reward(fenced(padded), task)
    assert before.outcome == after.outcome == "ok"
    assert len(before.launches) == 2
    assert after.components["structure_intensity"] <= before.components["structure_intensity"] + 1e-4
    assert after.components["structure"] < before.components["structure"]
    assert after.total < before.total
    assert after.components["work_share"] < 1.0 == before.components["work_share"]
