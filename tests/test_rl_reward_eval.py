"""The static reward against measured speed: the evaluation itself (with fakes), and the real corpus
numbers once profiles/measured/corpus_h200.csv exists."""

import pandas as pd
import pytest

from kernelscope.rl.ranker import kernel_features
from kernelscope.rl.reward import RewardConfig, UnifiedReward
from kernelscope.rl.reward_eval import reward_speed_correlation, spearman
from kernelscope.rl.tasks import load_corpus
from test_rl_support import SHAPES, candidate, fake_analyze, make_problem


def test_spearman_is_undefined_for_constant_or_short_inputs():
    assert spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert spearman([3, 2, 1], [10, 20, 30]) == pytest.approx(-1.0)
    assert spearman([1, 1, 1], [10, 20, 30]) is None
    assert spearman([1, 2], [1, 2]) is None


def test_correlation_scores_each_implementation_and_compares_with_speed(tmp_path):
    directory = make_problem(tmp_path, "vector_add")
    (directory / "tiled.cu").write_text(candidate("shape: tiled", fenced=False))
    spec = directory / "spec.toml"
    spec.write_text(spec.read_text().replace(
        '{ file = "coalesced.cu", kernel = "vector_add", strategy = "coalesced" },',
        '{ file = "coalesced.cu", kernel = "vector_add", strategy = "coalesced" },\n'
        '  { file = "tiled.cu", kernel = "vector_add", strategy = "tiled" },'))
    tasks = load_corpus(str(tmp_path))
    table = pd.DataFrame([{"problem": "vector_add", "size": "large", "implementation": name, "time_ms": time,
                           **kernel_features(SHAPES[shape])}
                          for name, shape, time in (("naive", "strided", 5.0), ("coalesced", "coalesced", 1.0),
                                                    ("tiled", "tiled", 0.9))])
    report = reward_speed_correlation(
        tasks, table, reward_factory=lambda held_out: UnifiedReward(RewardConfig(), analyze_fn=fake_analyze))
    entry = report["per_problem"]["vector_add"]
    assert entry["implementations"] == ["naive", "coalesced", "tiled"]
    assert entry["scores"][0] < entry["scores"][1]  # strided scores below coalesced
    assert report["median_spearman"] == pytest.approx(entry["rho"])
