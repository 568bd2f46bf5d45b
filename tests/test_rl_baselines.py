"""Per-problem baselines and the speed credit calibrated to them."""

from __future__ import annotations

import math

import pytest

from kernelscope.errors import InputError
from kernelscope.rl.baselines import Baseline, load_baselines
from kernelscope.rl.reward import RewardConfig, performance_score


def test_beating_a_weak_reference_is_not_full_credit_once_a_baseline_is_known():
    config = RewardConfig(mode="full")
    # a naive kernel 16x faster than a slow reference, on a problem whose fastest known kernel is 22x
    assert performance_score(16.0, config) == 1.0
    calibrated = performance_score(16.0, config, baseline=22.0)
    assert calibrated < config.baseline_share
    assert performance_score(22.0, config, baseline=22.0) == pytest.approx(config.baseline_share)
    assert performance_score(22.0 * config.beyond_baseline_cap, config, baseline=22.0) == 1.0


def test_calibrated_credit_grows_with_speed_and_ignores_noise():
    config = RewardConfig(mode="full")
    values = [performance_score(s, config, baseline=4.0) for s in (1.0, 1.04, 2.0, 4.0, 6.0, 8.0, 20.0)]
    assert values[0] == values[1] == 0.0
    assert values[2:] == sorted(values[2:]) and len(set(values[2:6])) == 4


def test_a_baseline_no_faster_than_the_reference_gives_the_reaching_share_to_any_real_speedup():
    config = RewardConfig(mode="full")
    assert performance_score(1.2, config, baseline=1.0) == pytest.approx(
        config.baseline_share + (1 - config.baseline_share) * math.log(1.2) / math.log(config.beyond_baseline_cap))


def test_baseline_ratios_average_geometrically_over_sizes(tmp_path):
    path = tmp_path / "b.csv"
    path.write_text("problem,size,kind,name,baseline_ms,reference_ms\n"
                    "softmax,small,torch_eager,torch.softmax,0.01,0.02\nsoftmax,large,torch_eager,torch.softmax,0.1,0.8\n")
    baseline = load_baselines(path)["softmax"]
    assert baseline.kind == "torch_eager"
    assert baseline.speedup_over_reference() == pytest.approx(4.0)
    assert baseline.speedup_over_reference(["large"]) == pytest.approx(8.0)
    with pytest.raises(InputError, match="not measured at size"):
        baseline.speedup_over_reference(["huge"])


def test_a_malformed_baselines_table_is_an_input_error(tmp_path):
    path = tmp_path / "b.csv"
    path.write_text("problem,size,kind,name,baseline_ms,reference_ms\nsoftmax,small,guess,x,0,1\n")
    with pytest.raises(InputError, match="bad baseline row"):
        load_baselines(path)


def test_baseline_objects_compare_by_value():
    assert Baseline("a", "reference", "", {"s": 1.0}) == Baseline("a", "reference", "", {"s": 1.0})


def test_the_committed_table_has_a_baseline_for_every_corpus_problem_and_size():
    from pathlib import Path

    from kernelscope.rl.tasks import load_corpus

    corpus = load_corpus(str(Path(__file__).resolve().parents[1] / "corpus"))
    baselines = load_baselines()
    for name, task in corpus.items():
        assert set(baselines[name].reference_ratio) == set(task.sizes), name
        assert baselines[name].kind == ("torch_eager" if task.style == "pytorch" else "fastest_implementation"), name
