"""The CPU training example is a configuration the trainer accepts, with every [grpo] key a
GRPOConfig field and nothing that needs a GPU."""

from pathlib import Path

import pytest

from kernelscope.rl.trainer import TrainConfig

EXAMPLE = Path(__file__).parents[1] / "examples" / "train" / "grpo_cpu.toml"


def test_cpu_example_trains_on_the_cpu_with_static_rewards():
    config = TrainConfig.load(EXAMPLE)
    assert config.reward.get("mode") == "static"
    assert config.grpo["use_cpu"] is True and config.grpo["bf16"] is False
    assert config.model == "examples/train/tiny-policy"
    assert all((Path(config.corpus) / name).is_dir() for name in config.problems)


def test_cpu_example_grpo_keys_are_grpo_config_fields():
    pytest.importorskip("trl")
    from trl import GRPOConfig

    GRPOConfig(**TrainConfig.load(EXAMPLE).grpo)
