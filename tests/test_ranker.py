import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from kernelscope.rl.ranker import (FEATURE_NAMES, PairwiseRanker, kernel_features, load_model,
                                   make_pairs, save_model)
from kernelscope.rl.ranker_training import cross_validate, evaluate_model, kendall_tau, train
from test_rl_support import SHAPES, fake_analyze

pytest.importorskip("sklearn")


def synthetic_table(seed=0, problems=10, implementations=5, noise=0.05):
    """Times that follow a hidden linear law over the features (plus noise): a ranker must recover it,
    and no single feature tells the whole story."""
    rng = np.random.default_rng(seed)
    law = np.zeros(len(FEATURE_NAMES))
    law[:6] = [0.9, -0.6, 0.7, 0.5, -0.4, 0.3]
    rows = []
    for p in range(problems):
        for size in ("small", "large"):
            for i in range(implementations):
                x = rng.normal(size=len(FEATURE_NAMES))
                log_time = x @ law + rng.normal(scale=noise)
                rows.append({"problem": f"p{p}", "size": size, "implementation": f"impl{i}",
                             "time_ms": float(np.exp(log_time)), **dict(zip(FEATURE_NAMES, x))})
    return pd.DataFrame(rows)


def test_pairs_come_only_from_the_same_problem_and_size():
    table = synthetic_table(problems=3, implementations=4)
    pairs = make_pairs(table)
    assert len(pairs.y) == 3 * 2 * (4 * 3 // 2)
    assert all(a[0] == pairs.groups[k] for k, a in enumerate(pairs.keys))
    assert (pairs.ratio >= 1).all()


def test_ranker_is_an_estimator_with_fit_predict_score_and_is_antisymmetric():
    pairs = make_pairs(synthetic_table())
    model = PairwiseRanker(C=1.0).fit(pairs.X, pairs.y)
    assert model.score(pairs.X, pairs.y) > 0.9
    p = model.predict_proba(pairs.X)[:, 1]
    assert np.allclose(p + model.predict_proba(-pairs.X)[:, 1], 1.0)
    assert model.get_params() == {"C": 1.0, "max_iter": 2000}
    assert model.set_params(C=0.5).C == 0.5


def test_utility_differences_are_the_pairwise_log_odds():
    pairs = make_pairs(synthetic_table())
    model = PairwiseRanker().fit(pairs.X, pairs.y)
    a, b = np.random.default_rng(1).normal(size=(2, len(FEATURE_NAMES)))
    p = model.predict_proba((a - b)[None])[0, 1]
    assert np.log(p / (1 - p)) == pytest.approx(float(model.utility(a)[0] - model.utility(b)[0]))


def test_leave_problem_out_recovers_the_law_and_beats_every_single_feature():
    report = cross_validate(synthetic_table(), min_ratio=1.2)
    assert report["problems"] == 10
    assert report["accuracy"] >= 0.85
    assert report["kendall_tau_mean"] > 0.6
    assert report["accuracy"] > max(report["single_feature_accuracy"].values())


def test_evaluate_model_judges_a_trained_model_without_refitting():
    table = synthetic_table()
    model = train(table)
    result = evaluate_model(model, synthetic_table(seed=5))
    assert result["accuracy"] > 0.85 and result["pairs"] > 0


def test_kendall_tau_counts_agreements_between_utility_and_speed():
    assert kendall_tau([3, 2, 1], [1.0, 2.0, 3.0]) == 1.0
    assert kendall_tau([1, 2, 3], [1.0, 2.0, 3.0]) == -1.0
    assert kendall_tau([1], [1.0]) is None


def test_model_round_trips_through_skops(tmp_path):
    pytest.importorskip("skops")
    pairs = make_pairs(synthetic_table())
    model = PairwiseRanker().fit(pairs.X, pairs.y)
    save_model(model, tmp_path / "ranker.skops")
    loaded = load_model(tmp_path / "ranker.skops")
    assert np.allclose(loaded.predict_proba(pairs.X), model.predict_proba(pairs.X))
    assert not (tmp_path / "ranker.skops").read_bytes().startswith(b"\x80")  # not a pickle stream


def test_features_prefer_coalesced_traffic():
    coalesced = kernel_features(SHAPES["coalesced"], threads=1 << 20)
    strided = kernel_features(SHAPES["strided"], threads=1 << 20)
    assert strided["log_total_sectors"] > coalesced["log_total_sectors"]
    assert strided["uncoalesced_share"] == 1.0 and coalesced["uncoalesced_share"] == 0.0
    assert set(coalesced) == set(FEATURE_NAMES)


def test_compare_command_prints_the_faster_kernel_as_json(tmp_path, monkeypatch):
    pytest.importorskip("skops")
    from kernelscope.cli import cli
    from kernelscope.commands import rank

    table = pd.DataFrame([{"problem": "p", "size": "s", "implementation": name, "time_ms": time,
                           **kernel_features(SHAPES[name], threads=1 << 20)}
                          for name, time in (("coalesced", 1.0), ("strided", 6.0), ("tiled", 0.8),
                                             ("low_occupancy", 1.5))])
    model_path = tmp_path / "model.skops"
    save_model(train(table), model_path)
    monkeypatch.setattr(rank, "analyze_file", lambda source, path, block, bindings: fake_analyze(source))
    fast = tmp_path / "fast.cu"
    slow = tmp_path / "slow.cu"
    fast.write_text("// shape: coalesced\n__global__ void add(float* a) {}\n")
    slow.write_text("// shape: strided\n__global__ void add(float* a) {}\n")
    runner = CliRunner()
    result = runner.invoke(cli, ["rank", "compare", f"{slow}:add", str(fast), "--block", "256", "--arg", "n=1024",
                                 "--model", str(model_path), "--format", "json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["faster"] == "B" and 0.5 <= answer["probability"] <= 1.0
    missing = runner.invoke(cli, ["rank", "compare", str(tmp_path / "nope.cu"), str(fast), "--model", str(model_path)])
    assert missing.exit_code == 2
    wrong_kernel = runner.invoke(cli, ["rank", "compare", f"{fast}:other", str(slow), "--model", str(model_path)])
    assert wrong_kernel.exit_code == 2


def test_train_and_eval_commands_write_a_model_and_a_report(tmp_path, monkeypatch):
    pytest.importorskip("skops")
    from kernelscope.cli import cli
    from kernelscope.rl import reward as reward_module
    from test_rl_support import candidate, make_problem

    monkeypatch.setattr(reward_module, "default_analyze", fake_analyze)
    corpus = tmp_path / "corpus"
    rows = []
    for index, name in enumerate(("alpha", "beta", "gamma", "delta")):
        directory = make_problem(corpus, name)
        (directory / "tiled.cu").write_text(candidate("shape: tiled", fenced=False))
        spec = directory / "spec.toml"
        spec.write_text(spec.read_text().replace(
            '{ file = "coalesced.cu", kernel = "vector_add", strategy = "coalesced" },',
            '{ file = "coalesced.cu", kernel = "vector_add", strategy = "coalesced" },\n'
            '  { file = "tiled.cu", kernel = "vector_add", strategy = "tiled" },'))
        for size, scale in (("small", 0.01), ("large", 1.0)):
            for implementation, time in (("naive", 6.0), ("coalesced", 1.0 + 0.1 * index), ("tiled", 0.5)):
                rows.append({"problem": name, "implementation": f"{implementation}.cu", "strategy": implementation,
                             "size": size, "correct": True, "time_ms": time * scale})
    measurements = tmp_path / "measured.csv"
    pd.DataFrame(rows).to_csv(measurements, index=False)
    model = tmp_path / "ranker.skops"
    report = tmp_path / "report.md"
    runner = CliRunner()
    trained = runner.invoke(cli, ["rank", "train", "--corpus", str(corpus), "--measurements", str(measurements),
                                  "-o", str(model), "--report", str(report)])
    assert trained.exit_code == 0, trained.output
    assert model.exists()
    text = report.read_text()
    assert "pairwise accuracy" in text and "single-feature baseline" in text and "Spearman" in text
    evaluated = runner.invoke(cli, ["rank", "eval", "--model", str(model), "--corpus", str(corpus),
                                    "--measurements", str(measurements), "--format", "json"])
    assert evaluated.exit_code == 0, evaluated.output
    result = json.loads(evaluated.output)
    assert result["accuracy"] == 1.0 and result["pairs"] == 4 * 2 * 3
    missing = runner.invoke(cli, ["rank", "eval", "--model", str(model), "--corpus", str(corpus),
                                  "--measurements", str(tmp_path / "none.csv")])
    assert missing.exit_code == 2 and "no measurements file" in missing.output


def test_launch_site_grid_sets_the_thread_count_when_none_is_given():
    launched = dict(SHAPES["coalesced"], grid=[4096, 1, 1])
    assert kernel_features(launched)["log_threads"] == pytest.approx(np.log2(1 + 4096 * 256))
    assert kernel_features(SHAPES["coalesced"])["log_threads"] == pytest.approx(np.log2(1 + 256))
    assert kernel_features(launched, threads=1024)["log_threads"] == pytest.approx(np.log2(1 + 1024))
