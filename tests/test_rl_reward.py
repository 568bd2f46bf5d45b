import math

import pytest

from kernelscope.rl.hacks import structural_hacks
from kernelscope.rl.reward import RewardConfig, UnifiedReward, performance_score
from kernelscope.rl.tasks import load_task
from test_rl_support import candidate, fake_analyze, fake_run, make_problem


@pytest.fixture
def task(tmp_path):
    return load_task(make_problem(tmp_path))


def static_reward(**kwargs):
    return UnifiedReward(RewardConfig(mode="static"), analyze_fn=fake_analyze, **kwargs)


def full_reward(**kwargs):
    return UnifiedReward(RewardConfig(mode="full"), analyze_fn=fake_analyze, run_fn=fake_run, **kwargs)


def test_every_component_is_returned_with_the_total(task):
    result = static_reward()(candidate(), task)
    assert result.band == "pass" and result.outcome == "ok"
    for key in ("gate", "performance", "structure", "penalty", "structure_coalescing", "structure_occupancy",
                "structure_intensity", "structure_sync", "structure_ranker"):
        assert key in result.components
    assert 0.0 <= result.total <= 1.0
    assert set(result.to_json()) >= {"total", "band", "outcome", "components"}


def test_coalesced_kernel_outscores_a_strided_one_statically(task):
    reward = static_reward()
    assert reward(candidate("shape: coalesced"), task).total > reward(candidate("shape: strided"), task).total


def test_races_and_divergent_barriers_lower_the_structure_term(task):
    reward = static_reward()
    clean = reward(candidate("shape: coalesced"), task)
    racy = reward(candidate("shape: racy"), task)
    assert racy.components["structure_sync"] < clean.components["structure_sync"]
    assert racy.total < clean.total


def test_lint_errors_are_a_penalty(task):
    reward = static_reward()
    clean = reward(candidate(), task)
    linted = reward(candidate("lint: error"), task)
    assert linted.components["penalty"] > 0
    assert linted.total == pytest.approx(clean.total - linted.components["penalty"])


def test_missing_code_and_syntax_errors_fail_the_gate(task):
    reward = static_reward()
    no_code = reward("I think you should use shared memory.", task)
    broken = reward(candidate("syntax error here"), task)
    assert (no_code.band, no_code.outcome) == ("fail", "no_code")
    assert (broken.band, broken.outcome) == ("fail", "syntax_error")
    assert no_code.total < 0 and broken.total < 0


def test_source_hacks_get_the_floor_even_in_static_mode(task):
    reward = static_reward()
    lowest = RewardConfig().hack
    for completion in (candidate("shape: no_loads"), candidate("shape: echo"),
                       candidate().replace("c[i] = a[i] + b[i];", "cudaDeviceSynchronize(); c[i] = a[i];")):
        result = reward(completion, task)
        assert result.outcome == "hack" and result.total == lowest, result.hacks


def test_a_device_global_alone_is_not_a_hack_the_runners_state_carried_evidence_is(task):
    # an honest kernel may keep a grid-wide counter in a __device__ global; only a run shows whether
    # one carried an answer across launches
    counter = "__device__ unsigned int blocks_done = 0;\nextern"
    static = static_reward()(candidate().replace("extern", counter), task)
    assert static.outcome == "ok" and static.total > 0, static.hacks
    caught = full_reward()(candidate("run: flag=state_carried").replace("extern", counter), task)
    assert caught.outcome == "hack" and caught.total == RewardConfig().hack
    assert "state_carried" in caught.hacks


def test_inputs_are_matched_to_parameters_by_position_not_by_name(task):
    renamed = candidate().replace("const float* a, const float* b, float* c", "const float* x, const float* y, float* z")
    renamed = renamed.replace("c[i] = a[i] + b[i];", "z[i] = x[i] + y[i];")
    params = [{"name": n} for n in ("x", "y", "z", "n")]

    def analyze_renamed(code, **kwargs):
        document = fake_analyze(code, **kwargs)
        kernel = dict(document["kernels"][0], params=params)
        kernel["accesses"] = [dict(a, array={"a": "x", "b": "y", "c": "z"}[a["array"]]) for a in kernel["accesses"]]
        return {**document, "kernels": [kernel]}

    result = UnifiedReward(RewardConfig(mode="static"), analyze_fn=analyze_renamed)(renamed, task)
    original = static_reward()(candidate(), task)
    assert result.outcome == "ok" and result.total == pytest.approx(original.total), result.hacks
    # an input the kernel never reads is still caught, through its position
    echo = analyze_renamed(renamed)["kernels"][0]
    echo["accesses"] = [a for a in echo["accesses"] if a["array"] != "y"]
    assert "never reads y" in structural_hacks(echo, task.arguments)["ignores_inputs"]


def test_half_precision_on_float32_data_is_a_hack(task):
    code = candidate().replace("c[i] = a[i] + b[i];", "c[i] = __half2float(__float2half(a[i]) + __float2half(b[i]));")
    assert "lowered_precision" in static_reward()(code, task).hacks


def test_a_variable_called_half_is_not_half_precision(task):
    code = candidate().replace("c[i] = a[i] + b[i];", "int half = n / 2; c[i] = a[i] + b[i] + half * 0;")
    assert static_reward()(code, task).outcome == "ok"


def test_full_mode_gates_compile_correctness_and_runner_flags(task):
    reward = full_reward()
    config = reward.config
    compile_error = reward(candidate("run: compile_error"), task)
    incorrect = reward(candidate("run: incorrect"), task)
    echo = reward(candidate("run: flag=input_echo"), task)
    assert (compile_error.outcome, compile_error.total) == ("compile_error", config.compile_error)
    assert (incorrect.outcome, incorrect.total) == ("incorrect", config.incorrect)
    assert (echo.outcome, echo.total) == ("hack", config.hack)
    assert config.hack <= min(config.compile_error, config.incorrect, config.no_code)


def test_every_failure_band_is_below_every_passing_candidate(task):
    reward = full_reward()
    failures = [reward(candidate(m), task).total for m in
                ("run: compile_error", "run: incorrect", "run: flag=timeout", "run: flag=unwritten_output")]
    slow_but_correct = reward(candidate("shape: strided", "run: speedup=0.2"), task).total
    assert max(failures) < 0 <= slow_but_correct


def test_measured_speedup_earns_credit_only_past_the_margin_and_up_to_the_cap():
    config = RewardConfig()
    assert performance_score(1.0, config) == 0.0
    assert performance_score(config.speedup_margin, config) == 0.0
    assert 0 < performance_score(2.0, config) < performance_score(4.0, config) < 1.0
    assert performance_score(config.speedup_cap * 3, config) == 1.0
    assert performance_score(None, config) == 0.0 and performance_score(math.nan, config) == 0.0


def test_speedup_credit_is_logarithmic(task):
    config = RewardConfig()
    doubling = performance_score(4.0, config) - performance_score(2.0, config)
    assert performance_score(8.0 * config.speedup_margin / 2, config) - performance_score(
        4.0 * config.speedup_margin / 2, config) == pytest.approx(doubling)


def test_implausible_speedup_is_treated_as_a_hack(task):
    flagged = full_reward()(candidate("run: speedup=3", "run: flag=implausible_speedup"), task)
    assert flagged.outcome == "hack" and "implausible_speedup" in flagged.hacks
    # a large honest speedup over a slow library reference is not suspicious by itself ...
    assert full_reward()(candidate("run: speedup=178"), task).outcome == "ok"
    # ... unless a ratio ceiling is configured
    ceiling = UnifiedReward(RewardConfig(mode="full", implausible_speedup=100.0), analyze_fn=fake_analyze,
                            run_fn=fake_run)
    assert "implausible_speedup" in ceiling(candidate("run: speedup=178"), task).hacks


def test_faster_correct_kernels_get_more_reward(task):
    reward = full_reward()
    totals = [reward(candidate(f"run: speedup={s}"), task).total for s in (0.5, 1.5, 3.0, 6.0)]
    assert totals == sorted(totals) and totals[0] < totals[-1]


def test_ranker_probability_enters_the_structure_term(task):
    high = static_reward(ranker_fn=lambda kernel, t: 0.95)(candidate(), task)
    low = static_reward(ranker_fn=lambda kernel, t: 0.05)(candidate(), task)
    assert high.components["structure_ranker"] == 0.95 and high.total > low.total


def test_weights_are_configurable_and_unknown_settings_are_refused(task):
    only_coalescing = RewardConfig.from_dict({"structure_weights": {
        "coalescing": 1.0, "shared_banks": 0, "occupancy": 0, "intensity": 0, "sync": 0, "ranker": 0}})
    result = UnifiedReward(only_coalescing, analyze_fn=fake_analyze)(candidate("shape: strided"), task)
    assert result.components["structure"] == pytest.approx(result.components["structure_coalescing"])
    with pytest.raises(ValueError):
        RewardConfig.from_dict({"speedup_margn": 1.1})
    with pytest.raises(ValueError):
        RewardConfig(mode="fast")


def test_repeated_completions_are_scored_once(task):
    calls = []

    def counting_analyze(code, **kwargs):
        calls.append(code)
        return fake_analyze(code, **kwargs)

    reward = UnifiedReward(analyze_fn=counting_analyze)
    for _ in range(4):
        reward(candidate(), task)
    # the candidate once, and each implementation once for the work the problem needs
    assert len(calls) == 1 + len(task.implementations)


def test_a_batch_goes_to_the_runner_once_per_task_without_duplicates(task, tmp_path):
    from kernelscope.rl.tasks import load_task
    from test_rl_support import make_problem

    other = load_task(make_problem(tmp_path / "more", "vector_sub"))
    batches = []

    def run_many(batch_task, candidates):
        batches.append((batch_task.name, len(candidates)))
        return [fake_run(code, kernel, batch_task) for code, kernel in candidates]

    reward = UnifiedReward(RewardConfig(mode="full"), analyze_fn=fake_analyze, run_many_fn=run_many)
    completions = [candidate("run: speedup=2"), candidate("run: speedup=2"), candidate("run: speedup=3"),
                   candidate("shape: no_loads"), "no code", candidate("run: speedup=2")]
    results = reward.score_many(completions, [task, task, task, task, task, other])
    assert sorted(batches) == [("vector_add", 2), ("vector_sub", 1)]
    assert [r.outcome for r in results] == ["ok", "ok", "ok", "hack", "no_code", "ok"]
    assert results[0] is results[1] and results[2].speedup == 3.0


def test_implementations_with_their_own_launch_go_to_the_runner_separately(task):
    launches = []

    def run_many(batch_task, candidates):
        launches.append((batch_task.implementation, batch_task.grid_text, len(candidates)))
        return [fake_run(code, kernel, batch_task) for code, kernel in candidates]

    naive = task.for_implementation(task.implementations[0])
    reward = UnifiedReward(RewardConfig(mode="full"), analyze_fn=fake_analyze, run_many_fn=run_many)
    reward.score_many([candidate("run: speedup=2"), candidate("run: speedup=3")], [task, naive])
    assert sorted(launches, key=str) == sorted([(None, ("ceil_div(n, 256)",), 1),
                                                ("naive.cu", ("ceil_div(n, 256 * 64)",), 1)], key=str)
