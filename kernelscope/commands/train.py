"""`kernelscope train CONFIG`: the bundled GRPO trainer (logic in kernelscope.rl.trainer)."""

from __future__ import annotations

import importlib.util
import json

import click

from kernelscope.commands._common import echo, exits_2_on_error, fail


@click.command(name="train")
@click.argument("config_path", metavar="CONFIG", type=click.Path(exists=True, dir_okay=False))
@click.option("--resume", "resume", default=None, is_flag=False, flag_value="latest",
              help="Resume from a checkpoint folder, or from the latest one when given without a value.")
@click.option("--max-steps", type=int, default=None, help="Override [grpo] max_steps.")
@click.option("--output-dir", default=None, help="Override [grpo] output_dir.")
@exits_2_on_error
def train(config_path, resume, max_steps, output_dir):
    """Train a policy with GRPO on corpus problems, rewarded by kernelscope (see docs/rl.md)."""
    from kernelscope.rl.trainer import TrainConfig, train as run_training

    config = TrainConfig.load(config_path)
    if importlib.util.find_spec("trl") is None:
        fail("training needs the train extra: pip install 'kernelscope[train]'")
    summary = run_training(config, resume=True if resume == "latest" else resume, max_steps=max_steps,
                           output_dir=output_dir)
    echo(json.dumps(summary, indent=2))
