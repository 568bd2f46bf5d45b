"""The local backend: compilation on a thread pool over the CPU cores, execution on one worker process
per GPU of this machine.

Each GPU gets a session (one runner worker process, its CUDA context kept across candidates) and a
thread that feeds it; the thread only waits on the worker's pipe, so the GIL is not the limit.
Compilation overlaps execution: a candidate runs as soon as it is compiled and a GPU is idle.
Results are yielded in the order they finish.
"""

from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

from kernelscope.batch.scheduler import Scheduler
from kernelscope.errors import KernelscopeError


def run_local(items, evaluator, devices, *, compile_workers: int | None = None, max_attempts: int = 3,
              warm_up: bool = True):
    """Yield a BatchOutcome per item as each finishes. `devices` are CUDA device ordinals as this
    process sees them (CUDA_VISIBLE_DEVICES already applied)."""
    devices = list(devices)
    if not devices:
        raise KernelscopeError("the local backend needs at least one GPU")
    items = list(items)
    scheduler = Scheduler(items, devices, max_attempts=max_attempts)
    sessions = {device: evaluator.open(device) for device in devices}
    feeders = {device: ThreadPoolExecutor(1, thread_name_prefix=f"kernelscope-gpu{device}") for device in devices}
    compilers = ThreadPoolExecutor(compile_workers or _cpu_count(), thread_name_prefix="kernelscope-compile")
    running = {}
    try:
        if warm_up:
            # start every GPU's worker while the first candidates compile; a failure here shows up
            # again, and is handled, on that GPU's first candidate
            for device in devices:
                feeders[device].submit(sessions[device].warm_up)
        for item in items:
            running[compilers.submit(evaluator.prepare, item)] = ("prepare", item, None)
        while not scheduler.finished:
            for device, prepared in scheduler.assignments():
                running[feeders[device].submit(sessions[device].evaluate, prepared)] = ("run", prepared, device)
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                kind, work, device = running.pop(future)
                yield from _settle(scheduler, future, kind, work, device)
    finally:
        compilers.shutdown(wait=False, cancel_futures=True)
        for device in devices:
            feeders[device].shutdown(wait=True, cancel_futures=True)
            sessions[device].close()


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
