"""TRL's GRPOTrainer runs two steps with kernelscope's reward in `reward_funcs` (skipped where TRL and
torch are not installed; docs/rl.md says how it was run).

The policy is a tiny Llama built here (no model hub): first fitted to answer four prompts with the
pass, fail, no-code and hack samples, so that the completions TRL generates, decodes and hands to the
reward cover every outcome. The reward is the adapter as a user builds it, from no environment: static
mode, the shipped corpus, the shipped ranker.
"""

from __future__ import annotations

import importlib.metadata

import pytest

torch = pytest.importorskip("torch")
trl = pytest.importorskip("trl")
pytest.importorskip("datasets")

from rl_samples import PROBLEM, SAMPLES, build_tokenizer, compiler_present, environment  # noqa: E402

TAUGHT = ["pass", "fail", "no_code", "hack"]


def prompt_for(name: str) -> str:
    return f"Task {name}: write {PROBLEM}.\n"


def fitted_policy(directory):
    """A 2-layer Llama that answers prompt_for(name) with SAMPLES[name], saved with its tokenizer."""
    from transformers import LlamaConfig, LlamaForCausalLM

    tokenizer = build_tokenizer(directory, [prompt_for(n) + SAMPLES[n][0] for n in TAUGHT])
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=512,
                         pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                         bos_token_id=tokenizer.eos_token_id)
    torch.manual_seed(0)
    model = LlamaForCausalLM(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    pairs = []
    for name in TAUGHT:
        prompt_ids = tokenizer(prompt_for(name))["input_ids"]
        answer_ids = tokenizer(SAMPLES[name][0])["input_ids"] + [tokenizer.eos_token_id]
        ids = torch.tensor(prompt_ids + answer_ids)
        labels = ids.clone()
        labels[:len(prompt_ids)] = -100
        pairs.append((ids, labels))
    width = max(len(ids) for ids, _ in pairs)
    input_ids = torch.stack([torch.cat([i, torch.full((width - len(i),), tokenizer.pad_token_id)]) for i, _ in pairs])
    labels = torch.stack([torch.cat([l, torch.full((width - len(l),), -100)]) for _, l in pairs])
    mask = (torch.arange(width)[None, :] < torch.tensor([len(i) for i, _ in pairs])[:, None]).long()
    model.train()
    for _ in range(300):
        loss = model(input_ids=input_ids, attention_mask=mask, labels=labels).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.save_pretrained(str(directory))
    return loss.item(), width


def test_grpo_trainer_runs_two_steps_with_the_kernelscope_reward(tmp_path, monkeypatch):
    if not compiler_present():
        pytest.skip("the 'fail' sample needs NVRTC or nvcc for static mode's compile gate")
    from datasets import Dataset
    from transformers import AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from kernelscope.rl.adapters import make_trl_reward

    environment(monkeypatch)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    final_loss, width = fitted_policy(tmp_path / "policy")
    seen = []
    reward = make_trl_reward(on_scored=lambda prompts, completions, labels, rewards: seen.append(
        [(p.split(":")[0], r.outcome, round(r.total, 4)) for p, r in zip(prompts, rewards)]))
    reward.__name__ = "kernelscope"
    dataset = Dataset.from_dict({"prompt": [prompt_for(n) for n in TAUGHT], "problem": [PROBLEM] * len(TAUGHT)})
    args = GRPOConfig(output_dir=str(tmp_path / "run"), num_generations=2, per_device_train_batch_size=4,
                      max_completion_length=width, max_steps=2, learning_rate=1e-5, temperature=0.2,
                      logging_steps=1, report_to="none", use_cpu=True, bf16=False, seed=0, save_strategy="no")
    trainer = GRPOTrainer(model=str(tmp_path / "policy"), reward_funcs=[reward], args=args, train_dataset=dataset,
                          processing_class=AutoTokenizer.from_pretrained(str(tmp_path / "policy")))
    trainer.train()

    print(f"\ntrl {importlib.metadata.version('trl')}, transformers {importlib.metadata.version('transformers')}, "
          f"torch {torch.__version__}; policy fitted to the samples (final loss {final_loss:.4f})")
    print("code path: GRPOTrainer.train -> _generate_and_score_completions -> _calculate_rewards -> "
          "reward_funcs[0] = kernelscope.rl.adapters.make_trl_reward(), column 'problem'")
    for step, batch in enumerate(seen, 1):
        print(f"  reward call {step}: {batch}")
    logged = [entry for entry in trainer.state.log_history if "kernelscope/total" in entry]
    print(f"logged kernelscope metrics per step: {sorted(k for k in logged[0] if k.startswith('kernelscope/'))}")
    assert trainer.state.global_step == 2 and len(seen) >= 2
    outcomes = {outcome for batch in seen for _, outcome, _ in batch}
    assert {"ok", "no_code", "hack", "compile_error"} <= outcomes, outcomes
    assert len(logged) == 2
