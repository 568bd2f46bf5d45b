"""The adapters' call shapes, pinned: what TRL, verl and OpenRLHF call and what they get back (the
libraries' own code drives these in tests/integration/)."""

import inspect

import pytest

from kernelscope.errors import ToolMissingError, UsageError
from kernelscope.rl import adapters
from kernelscope.rl.adapters import (SAMPLE_KEYS, RewardSetupError, TaskResolver, compute_score, make_trl_reward,
                                     reward_func)
from kernelscope.rl.reward import HarnessError, RewardConfig, UnifiedReward
from test_rl_support import candidate, fake_analyze, fake_run, make_problem


@pytest.fixture
def corpus(tmp_path):
    make_problem(tmp_path, "vector_add")
    make_problem(tmp_path, "vector_add_copy")
    return tmp_path


@pytest.fixture
def environment_reward(corpus, monkeypatch):
    reward = UnifiedReward(RewardConfig(mode="full"), analyze_fn=fake_analyze, run_fn=fake_run)
    monkeypatch.setattr(adapters, "_environment_reward", lambda: (reward, TaskResolver(corpus)))
    return reward


def test_trl_reward_has_the_signature_grpo_trainer_calls():
    parameters = inspect.signature(make_trl_reward(UnifiedReward(analyze_fn=fake_analyze))).parameters
    assert list(parameters)[:3] == ["prompts", "completions", "completion_ids"]
    assert any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())


def test_trl_reward_scores_each_completion_against_its_problem_and_logs_components(corpus):
    logged = {}
    reward_fn = make_trl_reward(UnifiedReward(analyze_fn=fake_analyze), corpus_dir=corpus)
    completions = [candidate("shape: coalesced"), candidate("shape: strided"), "no code at all"]
    totals = reward_fn(prompts=["p"] * 3, completions=completions, completion_ids=[[1]] * 3,
                       problem=["vector_add", "vector_add", "vector_add_copy"],
                       log_metric=lambda name, value: logged.setdefault(name, value),
                       trainer_state=None)
    assert len(totals) == 3 and all(isinstance(t, float) for t in totals)
    assert totals[0] > totals[1] > totals[2]
    assert {"kernelscope/structure", "kernelscope/performance", "kernelscope/penalty",
            "kernelscope/outcome_no_code", "kernelscope/total"} <= set(logged)
    assert logged["kernelscope/outcome_no_code"] == pytest.approx(1 / 3)


def test_trl_reward_accepts_conversational_completions(corpus):
    reward_fn = make_trl_reward(UnifiedReward(analyze_fn=fake_analyze), corpus_dir=corpus)
    completion = [{"role": "assistant", "content": candidate()}]
    assert reward_fn([[{"role": "user", "content": "p"}]], [completion], None, problem=["vector_add"])[0] > 0


def test_trl_reward_retries_a_broken_evaluation_then_gives_none_for_that_sample_only(corpus):
    calls = []

    def flaky_run(code, kernel, task):
        calls.append(code)
        if "speedup=2" in code:
            raise RuntimeError("worker pool died")
        return fake_run(code, kernel, task)

    reward_fn = make_trl_reward(UnifiedReward(RewardConfig(mode="full"), analyze_fn=fake_analyze, run_fn=flaky_run),
                                corpus_dir=corpus)
    totals = reward_fn(["p", "p"], [candidate("run: speedup=2"), candidate("run: incorrect")], None,
                       problem=["vector_add", "vector_add"])
    assert totals[0] is None and totals[1] < 0
    broken = [code for code in calls if "speedup=2" in code]
    assert len(broken) == 2 + adapters.HARNESS_RETRIES  # the batch, then alone: once plus the retries


def test_trl_reward_raises_for_an_unknown_problem_at_the_first_call(corpus):
    reward_fn = make_trl_reward(UnifiedReward(analyze_fn=fake_analyze), corpus_dir=corpus)
    with pytest.raises(RewardSetupError, match="no_such_problem"):
        reward_fn(["p", "p"], [candidate(), candidate()], None, problem=["vector_add", "no_such_problem"])


def test_trl_reward_without_the_problem_column_is_an_error_not_a_reward_against_no_task(corpus):
    reward_fn = make_trl_reward(UnifiedReward(analyze_fn=fake_analyze), corpus_dir=corpus)
    with pytest.raises(RewardSetupError, match="'problem' column"):
        reward_fn(["p"], [candidate()], None, task=["vector_add"])
    with pytest.raises(RewardSetupError, match="no problem"):
        reward_fn(["p"], [candidate()], None, problem=[None])


def test_trl_reward_reads_the_corpus_from_kernelscope_corpus(tmp_path, monkeypatch):
    make_problem(tmp_path, "only_in_this_corpus")
    monkeypatch.setenv("KERNELSCOPE_CORPUS", str(tmp_path))
    reward_fn = make_trl_reward(UnifiedReward(analyze_fn=fake_analyze))
    assert reward_fn(["p"], [candidate()], None, problem=["only_in_this_corpus"])[0] > 0


def test_a_missing_corpus_is_an_error(tmp_path):
    reward_fn = make_trl_reward(UnifiedReward(analyze_fn=fake_analyze), corpus_dir=tmp_path / "nowhere")
    with pytest.raises(RewardSetupError, match="does not exist"):
        reward_fn(["p"], [candidate()], None, problem=["vector_add"])


def test_the_shipped_corpus_is_the_default():
    task = TaskResolver()("vector_add")
    assert task.name == "vector_add" and task.spec_path.is_file()


def test_trl_reward_reports_each_batch_to_its_observer(corpus):
    seen = []
    reward_fn = make_trl_reward(UnifiedReward(analyze_fn=fake_analyze), corpus_dir=corpus,
                                on_scored=lambda *args: seen.append(args))
    reward_fn(["p"], [candidate()], None, problem=["vector_add"])
    prompts, completions, labels, rewards = seen[0]
    assert labels == ["vector_add"] and rewards[0].outcome == "ok"


def test_verl_compute_score_returns_a_dict_with_score_and_components(environment_reward):
    result = compute_score("kernelscope", candidate("run: speedup=2.0"), "vector_add", extra_info={"index": 3})
    assert isinstance(result["score"], float) and result["score"] > 0
    assert result["outcome"] == "ok" and result["performance"] > 0
    failing = compute_score("kernelscope", candidate("run: incorrect"), "vector_add")
    assert failing["score"] < 0 and failing["outcome"] == "incorrect"


def test_verl_samples_have_one_key_set_whatever_the_outcome(environment_reward):
    # verl's reward loop takes the first sample's keys and looks each up in every other sample
    samples = [candidate("run: speedup=2.0"), candidate("run: incorrect"), "no code here",
               candidate("run: flag=input_echo"), candidate("run: compile_error")]
    results = [compute_score("kernelscope", text, "vector_add", extra_info={}) for text in samples]
    assert [r["outcome"] for r in results] == ["ok", "incorrect", "no_code", "hack", "compile_error"]
    for result in results:
        assert list(result) == ["score", "outcome", *SAMPLE_KEYS]
        assert all(isinstance(result[key], float) for key in SAMPLE_KEYS)
        assert sum(result[f"outcome_{o}"] for o in adapters.OUTCOMES) == 1.0


def test_verl_raises_with_the_reason_when_the_evaluation_breaks(corpus, monkeypatch):
    def broken_run(code, kernel, task):
        raise RuntimeError("worker pool died")

    reward = UnifiedReward(RewardConfig(mode="full"), analyze_fn=fake_analyze, run_fn=broken_run)
    monkeypatch.setattr(adapters, "_environment_reward", lambda: (reward, TaskResolver(corpus)))
    with pytest.raises(HarnessError, match="worker pool died"):
        compute_score("kernelscope", candidate(), "vector_add")
    with pytest.raises(RewardSetupError, match="unknown problem"):
        compute_score("kernelscope", candidate(), "not_a_problem")


def test_verl_ground_truth_may_be_a_problem_toml_path(environment_reward, corpus):
    result = compute_score("kernelscope", candidate(), str(corpus / "vector_add" / "spec.toml"))
    assert result["outcome"] == "ok"


def test_openrlhf_reward_func_cuts_the_prompt_off_the_query(environment_reward):
    prompt = "Write a kernel. ```cuda\n__global__ void decoy(int* x) {}\n```\n"
    queries = [prompt + candidate("run: speedup=3"), prompt + "no answer"]
    result = reward_func(queries, [prompt, prompt], ["vector_add", "vector_add"])
    rewards = [float(r) for r in result["rewards"]]
    assert rewards[0] > 0 > rewards[1]
    assert all(0.0 <= float(s) <= 1.0 for s in result["scores"])
    assert "structure" in result["extra_logs"]


def test_openrlhf_extra_logs_have_the_same_keys_for_every_sample_and_call(environment_reward):
    # OpenRLHF 0.11 calls the function with one sample at a time, then batches the logs by key
    answers = [reward_func([text], [""], ["vector_add"]) for text in
               (candidate("run: speedup=2"), "no code", candidate("run: flag=fault"), candidate("run: incorrect"))]
    for answer in answers:
        assert set(answer) == {"rewards", "scores", "extra_logs"}
        assert list(answer["extra_logs"]) == list(SAMPLE_KEYS)
        assert all(len(values) == 1 for values in answer["extra_logs"].values())
        assert len(answer["rewards"]) == len(answer["scores"]) == 1
    assert [float(a["extra_logs"]["outcome_hack"][0]) for a in answers] == [0.0, 0.0, 1.0, 0.0]
    # per sample, not the batch mean repeated: the passing sample's structure is its own
    assert float(answers[0]["extra_logs"]["structure"][0]) > 0 == float(answers[1]["extra_logs"]["structure"][0])


def test_openrlhf_raises_rather_than_scoring_a_broken_evaluation(corpus, monkeypatch):
    def broken_run(code, kernel, task):
        raise RuntimeError("cuda context lost")

    reward = UnifiedReward(RewardConfig(mode="full"), analyze_fn=fake_analyze, run_fn=broken_run)
    monkeypatch.setattr(adapters, "_environment_reward", lambda: (reward, TaskResolver(corpus)))
    with pytest.raises(HarnessError, match="cuda context lost"):
        reward_func([candidate()], [""], ["vector_add"])


@pytest.fixture
def fresh_environment(monkeypatch):
    adapters._environment_reward.cache_clear()
    monkeypatch.setenv("KERNELSCOPE_RANKER", "none")
    yield monkeypatch
    adapters._environment_reward.cache_clear()


def test_full_mode_without_a_gpu_is_an_error_at_the_first_call(fresh_environment):
    from kernelscope.runner import device

    fresh_environment.setenv("KERNELSCOPE_REWARD_MODE", "full")
    fresh_environment.setattr(device, "gpu_available", lambda: False)
    with pytest.raises(ToolMissingError, match="no CUDA GPU"):
        compute_score("kernelscope", candidate(), "vector_add")
    with pytest.raises(ToolMissingError):
        adapters.check_environment()


def test_a_bad_mode_or_corpus_in_the_environment_is_an_error(fresh_environment, tmp_path):
    fresh_environment.setenv("KERNELSCOPE_REWARD_MODE", "fast")
    with pytest.raises(UsageError, match="KERNELSCOPE_REWARD_MODE"):
        reward_func([candidate()], [""], ["vector_add"])
    fresh_environment.setenv("KERNELSCOPE_REWARD_MODE", "static")
    fresh_environment.setenv("KERNELSCOPE_CORPUS", str(tmp_path))
    with pytest.raises(RewardSetupError, match="no problems"):
        reward_func([candidate()], [""], ["vector_add"])


def test_full_mode_with_a_runner_of_ones_own_needs_no_local_gpu():
    assert UnifiedReward(RewardConfig(mode="full"), run_fn=fake_run)._needs_gpu_check is False
    assert UnifiedReward(RewardConfig(mode="full"))._needs_gpu_check is True


@pytest.mark.parametrize("variable, value, message", [
    ("KERNELSCOPE_CORPUS", "/no/such/corpus", "does not exist"),
    ("KERNELSCOPE_REWARD_MODE", "fast", "KERNELSCOPE_REWARD_MODE"),
])
def test_serve_refuses_to_start_with_a_broken_reward_setup(fresh_environment, variable, value, message):
    from click.testing import CliRunner

    from kernelscope.cli import cli

    result = CliRunner().invoke(cli, ["serve", "--port", "0"], env={variable: value, "KERNELSCOPE_RANKER": "none"})
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
