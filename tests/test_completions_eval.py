"""`kernelscope eval`: KernelBench-style figures from completions, with the runner replaced by a fake."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import SimpleNamespace

import pytest

from kernelscope.completions_eval import read_completions, report, score_completions, summarize
from kernelscope.errors import InputError
from kernelscope.report.eval_table import eval_table
from kernelscope.rl.baselines import Baseline

ROOT = Path(__file__).resolve().parents[1]
CODE = 'extern "C" __global__ void row_sum(const float* x, float* out, int rows, int cols) {{ /* {tag} */ }}'


def completion(tag: str) -> str:
    return f"Here it is:\n```cuda\n{CODE.format(tag=tag)}\n```\n"


class FakeRunner:
    """Outcome by the tag inside the kernel body: fail (does not compile), wrong, or a speedup."""

    def __init__(self):
        self.calls = []

    def __call__(self, spec, candidates):
        self.calls.append((spec.name, candidates))
        results = []
        for code, kernel in candidates:
            tag = code.split("/* ")[1].split(" */")[0]
            if tag == "fail":
                results.append(SimpleNamespace(compiled=False, correct=False, speedup=None, flags=["compile_error"],
                                               error="compilation failed"))
            elif tag == "wrong":
                results.append(SimpleNamespace(compiled=True, correct=False, speedup=3.0, flags=["mismatch"], error=None))
            else:
                results.append(SimpleNamespace(compiled=True, correct=True, speedup=float(tag), flags=[], error=None))
        return results


def records(*tags, problem="row_sum"):
    return [{"problem": problem, "completion": completion(t), "id": f"{problem}-{i}"} for i, t in enumerate(tags)]


def test_fast_p_counts_correct_completions_faster_than_p_times_the_baseline():
    baselines = {"row_sum": Baseline("row_sum", "fastest_implementation", "warp_shuffle.cu", {"small": 2.0, "large": 8.0})}
    # speedups over the reference 2, 4, 8, 16 become 0.5, 1, 2, 4 over a baseline 4x the reference
    scores = score_completions(records("2", "4", "8", "16", "wrong", "fail"), baselines=baselines,
                               run_many=FakeRunner())
    assert [s.speedup for s in scores[:4]] == pytest.approx([0.5, 1.0, 2.0, 4.0])
    figures = summarize(scores)["overall"]
    assert figures["completions"] == 6
    assert figures["compiled_rate"] == pytest.approx(5 / 6) and figures["correct_rate"] == pytest.approx(4 / 6)
    assert figures["fast_p"] == pytest.approx({"0": 4 / 6, "1": 2 / 6, "1.5": 2 / 6, "2": 1 / 6})
    assert figures["geomean_speedup"] == pytest.approx(math.sqrt(2.0))


def test_reference_baseline_keeps_the_runners_speedup():
    scores = score_completions(records("3"), baseline="reference", run_many=FakeRunner())
    assert scores[0].speedup == scores[0].speedup_vs_reference == 3.0


def test_problems_are_reported_separately_and_pooled():
    runner = FakeRunner()
    scores = score_completions(records("2", "wrong") + records("4", problem="softmax"), baseline="reference",
                               run_many=runner)
    document = report(scores, baseline="reference")
    assert [p["problem"] for p in document["problems"]] == ["row_sum", "softmax"]
    assert document["problems"][0]["correct_rate"] == 0.5 and document["problems"][1]["correct_rate"] == 1.0
    assert document["overall"]["completions"] == 3
    assert sorted(name for name, _ in runner.calls) == ["row_sum", "softmax"]   # one runner batch per problem
    json.dumps(document)
    table = eval_table(document)
    assert "fast_1.5" in table and table.splitlines()[-1].startswith("overall")


def test_a_completion_without_code_is_not_compiled_and_never_runs():
    runner = FakeRunner()
    scores = score_completions([{"problem": "row_sum", "completion": "I cannot help.", "id": "x"}],
                               baseline="reference", run_many=runner)
    assert scores[0].flags == ["no_code"] and not scores[0].compiled and runner.calls == []


def test_a_problem_without_a_measured_baseline_is_an_error_not_a_default():
    with pytest.raises(InputError, match="no measured baseline"):
        score_completions(records("2"), baselines={}, run_many=FakeRunner())


def test_unknown_problems_and_malformed_lines_fail_with_the_line(tmp_path):
    with pytest.raises(InputError, match="unknown problem 'nope'"):
        score_completions(records("2", problem="nope"), baseline="reference", run_many=FakeRunner())
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({"problem": "row_sum", "completion": "x"}) + "\n{\"problem\": 3}\n")
    with pytest.raises(InputError, match=":2: needs"):
        read_completions(path)


def test_the_cli_reports_bad_input_with_exit_status_2(tmp_path):
    from click.testing import CliRunner

    from kernelscope.cli import cli

    path = tmp_path / "c.jsonl"
    path.write_text("not json\n")
    result = CliRunner().invoke(cli, ["eval", str(path)])
    assert result.exit_code == 2 and "not JSON" in result.output
