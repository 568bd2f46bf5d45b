"""`GpuPool`: the runner's worker-pool interface (`run(job, timeout_s)`) over several GPUs.

Code written against one pool, the runner's `evaluate` and through it the RL layer's rewards, uses
every GPU when handed this: one worker process per device, each job to whichever worker is idle.
"""

from __future__ import annotations

import queue
from concurrent.futures import ThreadPoolExecutor


class GpuPool:
    def __init__(self, devices):
        from kernelscope.runner.worker import Worker

        self.devices = list(devices)
        if not self.devices:
            raise ValueError("a GPU pool needs at least one device")
        self._workers = [Worker(device) for device in self.devices]
        self._idle = queue.Queue()
        for worker in self._workers:
            self._idle.put(worker)

    def run(self, job: dict, timeout_s: float) -> dict:
        worker = self._idle.get()
        try:
            return worker.call(job, timeout_s)
        finally:
            self._idle.put(worker)

    def warm_up(self) -> None:
        """Start every worker now, all at once (each creates a CUDA context: seconds)."""
        with ThreadPoolExecutor(len(self._workers)) as threads:
            list(threads.map(lambda w: None if w.alive() else w.start(), self._workers))

    @property
    def pids(self) -> list:
        return [w.pid for w in self._workers]

    @property
    def restarts(self) -> int:
        return sum(max(0, w.starts - 1) for w in self._workers)

    def close(self) -> None:
        for worker in self._workers:
            worker.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def install_as_runner_default(pool) -> None:
    """Make `pool` the one the runner's `evaluate` uses when a caller passes none (the RL layer's
    rewards do), replacing the default single-GPU pool."""
    import atexit

    from kernelscope.runner import evaluation

    evaluation.set_default_pool(pool)
    atexit.register(pool.close)
