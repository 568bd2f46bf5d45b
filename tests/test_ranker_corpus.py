"""The ranker and the static reward against the corpus times measured on the H200
(profiles/measured/corpus_h200.csv): the claims of profiles/models/ranker_report.md, recomputed."""

from pathlib import Path

import pytest

from kernelscope.paths import profile_file
from kernelscope.rl.reward import RewardConfig
from kernelscope.rl.tasks import load_corpus

ROOT = Path(__file__).resolve().parents[1]
MEASURED = profile_file("measured/corpus_h200.csv")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not MEASURED.exists(), reason="no corpus measurements"),
              pytest.mark.skipif(not (ROOT / "corpus").is_dir(), reason="no corpus in this checkout")]


@pytest.fixture(scope="module")
def corpus_table():
    pytest.importorskip("tree_sitter_cuda")
    from kernelscope.rl.ranker_training import corpus_features, load_measurements, training_table

    tasks = load_corpus(str(ROOT / "corpus"))
    return tasks, training_table(corpus_features(tasks), load_measurements(MEASURED))


def test_held_out_problems_are_ranked_well_and_better_than_any_single_feature(corpus_table):
    from kernelscope.rl.ranker_training import cross_validate

    _, table = corpus_table
    report = cross_validate(table, min_ratio=1.2)
    assert report["problems"] >= 30 and report["pairs"] >= 100
    assert report["accuracy"] >= 0.85
    assert report["accuracy"] > max(report["single_feature_accuracy"].values())
    assert report["kendall_tau_mean"] > 0


def test_static_reward_orders_implementations_like_the_gpu(corpus_table):
    from kernelscope.rl.reward_eval import leave_problem_out_rewards, reward_speed_correlation

    tasks, table = corpus_table
    report = reward_speed_correlation(tasks, table, size="large",
                                      reward_factory=leave_problem_out_rewards(table, RewardConfig(mode="static")))
    assert report["problems_with_rho"] >= 30
    assert report["median_spearman"] >= 0.7


def test_shipped_model_loads_and_agrees_with_the_measurements(corpus_table):
    pytest.importorskip("skops")
    from kernelscope.rl.ranker import load_model
    from kernelscope.rl.ranker_training import evaluate_model

    _, table = corpus_table
    result = evaluate_model(load_model(), table, min_ratio=1.2)
    assert result["accuracy"] >= 0.85 and result["kendall_tau_mean"] > 0
