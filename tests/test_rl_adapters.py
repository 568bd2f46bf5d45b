import inspect

import pytest

from kernelscope.rl import adapters
from kernelscope.rl.adapters import TaskResolver, compute_score, make_trl_reward, reward_func
from kernelscope.rl.reward import RewardConfig, UnifiedReward
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


def test_trl_reward_returns_none_where_the_evaluation_itself_breaks(corpus):
    def broken_run(code, kernel, task):
        raise RuntimeError("worker pool died")

    reward_fn = make_trl_reward(UnifiedReward(RewardConfig(mode="full"), analyze_fn=fake_analyze, run_fn=broken_run),
                                corpus_dir=corpus)
    assert reward_fn(["p", "p"], [candidate(), candidate()], None, problem=["vector_add", "no_such_problem"]) == [None, None]


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
