"""The batch backends as the RL layer's `run_many_fn`: one task's candidates of a training step
evaluated on every local GPU or on a Ray cluster, with the GPU workers kept from step to step.

    from kernelscope.batch.rl import BatchRunMany
    from kernelscope.rl.reward import RewardConfig, UnifiedReward
    reward = UnifiedReward(RewardConfig(mode="full"), run_many_fn=BatchRunMany(backend="ray", address="auto"))
"""

from __future__ import annotations

import threading

from kernelscope.batch.api import check_sizes
from kernelscope.batch.evaluator import EvalOptions, RunnerEvaluator
from kernelscope.batch.items import BatchItem


class BatchRunMany:
    """`run_many_fn(task, [(code, kernel), ...]) -> [RunResult, ...]` in candidate order; raises the RL
    layer's HarnessError when the harness, not a candidate, failed (that candidate gets no reward)."""

    def __init__(self, options: EvalOptions | None = None, *, backend: str = "local", workers: int | None = None,
                 address: str | None = None, evaluator=None, devices=None):
        self.options = options or EvalOptions()
        self.backend, self.workers, self.address, self.devices = backend, workers, address, devices
        self.evaluator = evaluator or RunnerEvaluator(self.options)
        self._gpus = None
        self._lock = threading.Lock()

    def __call__(self, task, candidates) -> list:
        from kernelscope.rl.reward import HarnessError
        from kernelscope.runner import load_spec

        spec = load_spec(task.spec_path)   # a known implementation's launch is the plan its source carries
        items = [BatchItem(index=i, spec=spec, source=code, kernel=kernel)
                 for i, (code, kernel) in enumerate(candidates)]
        check_sizes(items, self.options.sizes)
        outcomes = sorted(self._started().run(items), key=lambda o: o.index)
        for outcome in outcomes:
            if "harness_error" in outcome.result.flags:
                raise HarnessError(outcome.result.error or "the batch could not run a candidate")
        return [outcome.result for outcome in outcomes]

    def close(self) -> None:
        with self._lock:
            if self._gpus is not None:
                self._gpus.close()
                self._gpus = None

    def _started(self):
        with self._lock:
            if self._gpus is None:
                if self.backend == "ray":
                    from kernelscope.batch.ray_backend import RayGpus

                    self._gpus = RayGpus(self.evaluator, address=self.address, gpus=self.workers)
                else:
                    from kernelscope.batch.devices import choose_devices
                    from kernelscope.batch.local import LocalGpus

                    devices = self.devices if self.devices is not None else choose_devices(self.workers)
                    self._gpus = LocalGpus(self.evaluator, devices)
            return self._gpus
