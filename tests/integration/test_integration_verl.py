"""verl's own reward loop scores a batch mixing pass, fail, no-code and hack samples with
kernelscope's `compute_score` (skipped where verl is not installed; docs/rl.md says how it was run).

Driven as verl's PPO trainer drives it: the trainer's generated config, the reward function found
through `reward.custom_reward_function` (and through the legacy top-level key, migrated by verl's own
`migrate_legacy_reward_impl`), `RewardLoopManager.compute_rm_score` on a DataProto with its Ray reward
workers, then `extract_reward` and the validation metrics the trainer computes from the result.
"""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

verl = pytest.importorskip("verl")
ray = pytest.importorskip("ray")
torch = pytest.importorskip("torch")
pytest.importorskip("tensordict")

from rl_samples import PROBLEM, SAMPLES, build_tokenizer, compiler_present, environment  # noqa: E402

ORDER = ["pass", "fail", "no_code", "hack", "renamed"]  # a pass first: the order that raised KeyError


def trainer_config(tokenizer_dir: Path, *, legacy_key: bool):
    from omegaconf import OmegaConf, open_dict

    config = OmegaConf.load(Path(verl.__file__).parent / "trainer/config/_generated_ppo_trainer.yaml")
    with open_dict(config):
        config.actor_rollout_ref.model.path = str(tokenizer_dir)
        config.reward.num_workers = 1
        section = config.custom_reward_function if legacy_key else config.reward.custom_reward_function
        section.path = "pkg://kernelscope.rl.adapters"
        section.name = "compute_score"
    if legacy_key:
        from verl.experimental.reward_loop import migrate_legacy_reward_impl

        config = migrate_legacy_reward_impl(config)
    return config


def batch(tokenizer):
    """A DataProto shaped like the rollout's: left-padded prompts, right-padded responses."""
    import numpy as np
    from verl import DataProto

    prompts = [tokenizer(f"Write {PROBLEM}.")["input_ids"] for _ in ORDER]
    responses = [tokenizer(SAMPLES[name][0])["input_ids"] + [tokenizer.eos_token_id] for name in ORDER]
    width_p, width_r = max(map(len, prompts)), max(map(len, responses))
    pad = tokenizer.pad_token_id
    prompt_ids = torch.tensor([[pad] * (width_p - len(p)) + p for p in prompts])
    response_ids = torch.tensor([r + [pad] * (width_r - len(r)) for r in responses])
    prompt_mask = torch.tensor([[0] * (width_p - len(p)) + [1] * len(p) for p in prompts])
    response_mask = torch.tensor([[1] * len(r) + [0] * (width_r - len(r)) for r in responses])
    return DataProto.from_dict(
        tensors={"prompts": prompt_ids, "responses": response_ids,
                 "input_ids": torch.cat([prompt_ids, response_ids], dim=1),
                 "attention_mask": torch.cat([prompt_mask, response_mask], dim=1)},
        non_tensors={"data_source": np.array(["kernelscope"] * len(ORDER), dtype=object),
                     "reward_model": np.array([{"ground_truth": PROBLEM} for _ in ORDER], dtype=object),
                     "extra_info": np.array([{"index": i} for i in range(len(ORDER))], dtype=object),
                     "uid": np.array([f"prompt-{i}" for i in range(len(ORDER))], dtype=object)})


@pytest.fixture(scope="module")
def local_ray():
    # the reward workers inherit the environment Ray starts with: set it first
    with pytest.MonkeyPatch.context() as patch:
        environment(patch)
        ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
        yield
        ray.shutdown()


@pytest.mark.parametrize("legacy_key", [False, True], ids=["reward.custom_reward_function", "custom_reward_function"])
def test_verl_reward_loop_scores_a_mixed_batch(tmp_path, monkeypatch, local_ray, legacy_key):
    if not compiler_present():
        pytest.skip("the 'fail' sample needs NVRTC or nvcc for static mode's compile gate")
    from verl.experimental.reward_loop import RewardLoopManager
    from verl.trainer.ppo.metric_utils import process_validation_metrics
    from verl.trainer.ppo.reward import extract_reward

    environment(monkeypatch)
    tokenizer = build_tokenizer(tmp_path, [SAMPLES[name][0] for name in ORDER] + [f"Write {PROBLEM}."])
    config = trainer_config(tmp_path, legacy_key=legacy_key)
    assert config.reward.custom_reward_function.path == "pkg://kernelscope.rl.adapters"

    manager = RewardLoopManager(config)
    output = manager.compute_rm_score(batch(tokenizer))
    rm_scores, extra = extract_reward(output)
    scores = rm_scores.sum(dim=-1).tolist()
    outcomes = list(extra["outcome"])
    print(f"\nverl {importlib.metadata.version('verl')}, key {'custom_reward_function (legacy, migrated)' if legacy_key else 'reward.custom_reward_function'}")
    print("code path: RewardLoopManager.compute_rm_score -> RewardLoopWorker (Ray actor) -> "
          "NaiveRewardManager.run_single -> kernelscope.rl.adapters.compute_score; extract_reward; "
          "process_validation_metrics")
    print(f"reward_extra_keys: {output.meta_info['reward_extra_keys']}")
    for name, outcome, score in zip(ORDER, outcomes, scores):
        print(f"  {name:8} outcome={outcome:14} score={score:+.4f}")
    assert outcomes == [SAMPLES[name][1] for name in ORDER]
    assert scores[0] > 0 and all(s < 0 for s in scores[1:4])
    assert scores[-1] == pytest.approx(scores[0])  # renamed parameters score like the original
    assert all(len(values) == len(ORDER) for values in extra.values())
    metrics = process_validation_metrics(["kernelscope"] * len(ORDER), [f"prompt-{i}" for i in range(len(ORDER))],
                                         {"reward": scores, **{k: list(v) for k, v in extra.items()}})
    assert "structure" in metrics["kernelscope"] and "outcome" not in metrics["kernelscope"]
    print(f"validation metrics computed for: {sorted(metrics['kernelscope'])[:6]} ...")
