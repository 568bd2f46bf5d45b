"""The reward the service serves unless told otherwise: the RL layer's OpenRLHF reward function."""

from __future__ import annotations

import importlib

from kernelscope.errors import UsageError


def default_reward_fn():
    """`kernelscope.rl.adapters.reward_func`, configured from the environment (KERNELSCOPE_REWARD_MODE,
    KERNELSCOPE_CORPUS, KERNELSCOPE_RANKER), with its GPU runs spread over every visible GPU."""
    from kernelscope.batch.devices import visible_gpu_count
    from kernelscope.batch.pool import gpu_pool, install_as_runner_default
    from kernelscope.rl.adapters import reward_func

    gpus = visible_gpu_count()
    if gpus:       # workers start on first use: a static-mode reward never starts one
        install_as_runner_default(gpu_pool(range(gpus)))
    return reward_func


def load_reward_fn(spec: str):
    """'package.module:function' -> the function (a reward to serve instead of the default)."""
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute.isidentifier():
        raise UsageError(f"--reward expects MODULE:FUNCTION, got {spec!r}")
    try:
        function = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise UsageError(f"--reward {spec}: {exc}") from None
    if not callable(function):
        raise UsageError(f"--reward {spec}: not a function")
    return function
