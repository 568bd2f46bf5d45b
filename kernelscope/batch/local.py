"""The local backend: compilation on a thread pool over the CPU cores, execution on one worker process
per GPU of this machine.

Each GPU gets a session (one runner worker process, its CUDA context kept across candidates, and
across batches when a `LocalGpus` is reused) and a thread that feeds it; the thread only waits on the
worker's pipe, so the GIL is not the limit. Compilation overlaps execution: a candidate runs as soon
as it is compiled and a GPU is idle. Results are yielded in the order they finish.
"""

from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

from kernelscope.batch.scheduler import Scheduler
from kernelscope.errors import KernelscopeError


class LocalGpus:
    """The GPUs `devices` (CUDA ordinals as this process sees them), each with its session, kept
    until `close()`. Batches run at the same time (from several threads) share the GPUs; each GPU
    still runs one candidate at a time."""

    def __init__(self, evaluator, devices, *, compile_workers: int | None = None, warm_up: bool = True):
        self.devices = list(devices)
        if not self.devices:
            raise KernelscopeError("the local backend needs at least one GPU")
        self.evaluator = evaluator
        self._sessions = {device: evaluator.open(device) for device in self.devices}
        self._feeders = {device: ThreadPoolExecutor(1, thread_name_prefix=f"kernelscope-gpu{device}")
                         for device in self.devices}
        self._compilers = ThreadPoolExecutor(compile_workers or _cpu_count(), thread_name_prefix="kernelscope-compile")
        if warm_up:
            # start every GPU's worker while the first candidates compile; a failure here shows up
            # again, and is handled, on that GPU's first candidate
            for device in self.devices:
                self._feeders[device].submit(self._sessions[device].warm_up)

    def run(self, items, *, max_attempts: int = 3):
        """Yield a BatchOutcome per item as each finishes."""
        items = list(items)
        scheduler = Scheduler(items, self.devices, max_attempts=max_attempts)
        running = {self._compilers.submit(self.evaluator.prepare, item): ("prepare", item, None) for item in items}
        try:
            while not scheduler.finished:
                for device, prepared in scheduler.assignments():
                    future = self._feeders[device].submit(self._sessions[device].evaluate, prepared)
                    running[future] = ("run", prepared, device)
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    kind, work, device = running.pop(future)
                    yield from _settle(scheduler, future, kind, work, device)
        finally:
            for future in running:         # an abandoned batch leaves no queued work behind
                future.cancel()

    def close(self) -> None:
        self._compilers.shutdown(wait=False, cancel_futures=True)
        for device in self.devices:
            self._feeders[device].shutdown(wait=True, cancel_futures=True)
            self._sessions[device].close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def run_local(items, evaluator, devices, *, compile_workers: int | None = None, max_attempts: int = 3,
              warm_up: bool = True):
    """One batch on GPUs started for it and stopped after it."""
    with LocalGpus(evaluator, devices, compile_workers=compile_workers, warm_up=warm_up) as gpus:
        yield from gpus.run(items, max_attempts=max_attempts)


def _settle(scheduler: Scheduler, future, kind, work, device):
    error = future.exception()
    if kind == "prepare":
        if isinstance(error, KernelscopeError):
            raise error          # a missing compiler or a bad option: every candidate would fail alike
        return scheduler.prepare_failed(work, error) if error else scheduler.prepared(future.result())
    if error is not None:
        return scheduler.run_failed(device, work, error)
    return scheduler.ran(device, work, future.result())


def _cpu_count() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return os.cpu_count() or 1
