"""The bundled GRPO trainer on the CPU: a tiny randomly initialised causal LM and a tokenizer built in
memory, two GRPO steps with static rewards, the components logged, a checkpoint that resumes."""

import json

import pytest

from kernelscope.rl.reward import RewardConfig, UnifiedReward
from kernelscope.rl.tasks import load_corpus
from kernelscope.rl.trainer import RefinementPool, TrainConfig, build_dataset, latest_checkpoint
from test_rl_support import candidate, fake_analyze, make_problem


@pytest.fixture
def corpus(tmp_path):
    make_problem(tmp_path / "corpus", "vector_add")
    make_problem(tmp_path / "corpus", "vector_sum")
    return tmp_path / "corpus"


def test_first_prompt_states_the_signature_and_refinement_shows_attempt_and_feedback(corpus):
    tasks = load_corpus(str(corpus))
    pool = RefinementPool(tasks, max_turns=2, chat=True)
    first, turn = pool.prompt("vector_add")
    assert turn == 1 and first[0]["role"] == "system"
    assert 'extern "C" __global__ void vector_add(const float* __restrict__ a' in first[1]["content"]
    assert "for (int i = 0; i < n; i++)" in first[1]["content"]
    reward = UnifiedReward(analyze_fn=fake_analyze)
    answers = [candidate("shape: strided"), "no code"]
    pool.record(["vector_add", "vector_add"], answers, [reward(a, tasks["vector_add"]) for a in answers])
    second, turn = pool.prompt("vector_add")
    assert turn == 2
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]
    assert second[2]["content"] == answers[0]  # the better attempt of the group is continued
    assert "Feedback on your kernel" in second[3]["content"] and "sectors" in second[3]["content"]
    pool.record(["vector_add"], answers[:1], [reward(answers[0], tasks["vector_add"])])
    assert pool.prompt("vector_add")[1] == 1  # past max_turns the problem starts afresh


def test_dataset_reads_prompts_from_the_pool_when_rows_are_fetched(corpus):
    pytest.importorskip("datasets")
    tasks = load_corpus(str(corpus))
    pool = RefinementPool(tasks, max_turns=3, chat=False)
    dataset = build_dataset(pool, repeats=2)
    assert len(dataset) == 4 and dataset[0]["turn"] == 1
    reward = UnifiedReward(analyze_fn=fake_analyze)
    pool.record([dataset[0]["problem"]], ["no code"], [reward("no code", tasks[dataset[0]["problem"]])])
    row = dataset[0]
    assert row["turn"] == 2 and "Feedback on your kernel" in row["prompt"]


def test_config_file_is_read_and_checked(tmp_path):
    path = tmp_path / "train.toml"
    path.write_text('[model]\npath = "m"\n[data]\ncorpus = "c"\nrepeats = 2\n[refinement]\nmax_turns = 2\n'
                    '[reward]\nmode = "full"\nranker = "none"\n[grpo]\nnum_generations = 4\n')
    config = TrainConfig.load(path)
    assert (config.model, config.repeats, config.max_turns, config.ranker) == ("m", 2, 2, "none")
    assert config.reward == {"mode": "full"} and config.grpo == {"num_generations": 4}
    assert config.corpus == str((tmp_path / "c").resolve())
    path.write_text('[model]\npath = "m"\n[data]\nrepeat = 2\n')
    from kernelscope.errors import UsageError

    with pytest.raises(UsageError):
        TrainConfig.load(path)


def tiny_policy(directory, texts):
    """A 2-layer Llama with hidden size 32 and a word-level tokenizer trained on `texts`, saved locally."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    word_level = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    word_level.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    word_level.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[UNK]", "[PAD]", "[EOS]"]))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=word_level, unk_token="[UNK]", pad_token="[PAD]",
                                        eos_token="[EOS]")
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=1024,
                         pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                         bos_token_id=tokenizer.eos_token_id)
    LlamaForCausalLM(config).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


@pytest.mark.slow
def test_two_grpo_steps_with_static_rewards_log_components_and_resume(tmp_path, corpus, monkeypatch):
    pytest.importorskip("torch")
    pytest.importorskip("trl")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    from kernelscope.rl import trainer as trainer_module
    from kernelscope.rl.prompts import first_turn

    tasks = load_corpus(str(corpus))
    texts = [first_turn(t, chat=False) for t in tasks.values()] + [candidate(), "```cuda ``` }"]
    model_dir = tiny_policy(tmp_path / "policy", texts)
    output = tmp_path / "run"
    config = TrainConfig(model=str(model_dir), corpus=str(corpus), repeats=2, max_turns=2, chat="no", ranker="none",
                         grpo={"num_generations": 2, "per_device_train_batch_size": 2, "max_completion_length": 8,
                               "max_steps": 2, "save_steps": 2, "learning_rate": 1e-3, "use_cpu": True,
                               "bf16": False, "seed": 0, "output_dir": str(output)})
    static = UnifiedReward(RewardConfig(mode="static"), analyze_fn=fake_analyze)
    summary = trainer_module.train(config, reward=static)
    assert summary["global_step"] == 2 and summary["reward_evaluations"] == 4
    assert summary["reward_evaluations_per_second"] > 0

    logged = [json.loads(line) for line in (output / "progress.jsonl").read_text().splitlines()]
    step_logs = [entry for entry in logged if "kernelscope/total" in entry]
    assert len(step_logs) == 2
    assert {"kernelscope/structure", "kernelscope/performance", "kernelscope/outcome_no_code",
            "kernelscope/evals_per_second"} <= set(step_logs[0])

    checkpoint = latest_checkpoint(output)
    assert checkpoint.name == "checkpoint-2"
    assert (checkpoint / "refinement_pool.json").exists()
    resumed = trainer_module.train(config, reward=static, resume=True, max_steps=3)
    assert resumed["global_step"] == 3 and resumed["reward_evaluations"] == 2


def test_example_config_is_valid_for_the_reward_and_for_grpo():
    pytest.importorskip("trl")
    from pathlib import Path

    from trl import GRPOConfig

    from kernelscope.rl.reward import RewardConfig

    config = TrainConfig.load(Path(__file__).parents[1] / "examples" / "train" / "grpo.toml")
    assert RewardConfig.from_dict(config.reward).mode == "full"
    assert config.max_turns > 1 and set(config.styles) == {"c", "pytorch"}
    GRPOConfig(**{**config.grpo, "bf16": False, "use_cpu": True})  # every [grpo] key is a GRPOConfig field


def test_train_command_reports_a_bad_config_in_one_line(tmp_path):
    from click.testing import CliRunner

    from kernelscope.cli import cli

    path = tmp_path / "bad.toml"
    path.write_text("[model]\n[data]\nrepeats = 2\n")
    result = CliRunner().invoke(cli, ["train", str(path)])
    assert result.exit_code == 2
    assert "path is required" in result.output and "Traceback" not in result.output
