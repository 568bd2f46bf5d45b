"""`gpu_pool`: the runner's worker-pool interface (`run(job, timeout_s)`) over several GPUs.

Code written against one pool, the runner's `evaluate` and through it the RL layer's rewards, uses
every GPU when handed this: one worker process per device, each job to whichever worker is idle.
"""

from __future__ import annotations


def gpu_pool(devices):
    """The runner's pool with one worker process on each of `devices`."""
    from kernelscope.runner.worker import WorkerPool

    return WorkerPool(devices=devices)


def install_as_runner_default(pool) -> None:
    """Make `pool` the one the runner's `evaluate` uses when a caller passes none (the RL layer's
    rewards do), replacing the default single-GPU pool."""
    import atexit

    from kernelscope.runner import evaluation

    evaluation.set_default_pool(pool)
    atexit.register(pool.close)
