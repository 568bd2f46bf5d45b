"""Scoring samples in worker processes that can be stopped.

A completion is text from a model. Analysing it can take far longer than usual (a pathological
pattern in a regular expression or an analysis), and in the service's own process that would hold
the interpreter lock: every request, `/health` included, would wait. Here each scoring thread of the
service owns one worker process; a sample is sent to it and the thread waits without holding the
lock. A worker that has not answered within the sample's time limit is killed (and replaced on the
next sample), one that runs out of its address-space limit dies; either way that sample gets a
`SampleRejected` error, never a score.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import resource
import threading
from dataclasses import dataclass

from kernelscope.errors import KernelscopeError

WORKER_START_TIMEOUT_S = 120.0     # importing the analysis stack on a busy machine


class SampleRejected(KernelscopeError):
    """One sample could not be scored within its limits (HTTP 422)."""


@dataclass(frozen=True)
class SampleLimits:
    time_s: float = 30.0
    memory_bytes: int | None = 2 * 1024 ** 3


class SandboxedReward:
    """An OpenRLHF-shaped reward function, `MODULE:FUNCTION`, called in worker processes.

    Call it with one sample at a time from any number of threads; each thread gets its own worker.
    """

    def __init__(self, reward_spec: str, limits: SampleLimits = SampleLimits(), environment: dict | None = None):
        self.reward_spec = reward_spec
        self.limits = limits
        self.environment = dict(environment or {})
        self._context = multiprocessing.get_context("spawn")   # no copy of the server's threads and locks
        self._local = threading.local()
        self._lock = threading.Lock()
        self._workers: set = set()
        self.killed = 0

    def __call__(self, queries, prompts, labels):
        worker = self._worker()
        worker.connection.send((queries, prompts, labels))
        if not worker.connection.poll(self.limits.time_s):
            self._discard(worker, kill=True)
            raise SampleRejected(f"not scored within its {self.limits.time_s:g} s limit; its worker was stopped")
        try:
            kind, value = worker.connection.recv()
        except (EOFError, OSError):
            self._discard(worker, kill=True)
            limit = self.limits.memory_bytes
            raise SampleRejected("its worker died while scoring it" +
                                 (f" (memory limit {limit / 2 ** 20:.0f} MB)" if limit else "")) from None
        if kind == "rejected":
            self._discard(worker, kill=True)   # after a MemoryError the worker's state is suspect
            raise SampleRejected(value)
        if kind == "error":
            raise KernelscopeError(value)
        return value

    def status(self) -> dict:
        with self._lock:
            return {"sandbox_workers": len(self._workers), "sandbox_killed": self.killed,
                    "sample_time_limit_s": self.limits.time_s,
                    "sample_memory_limit_mb": self.limits.memory_bytes // 2 ** 20 if self.limits.memory_bytes else None}

    def close(self) -> None:
        with self._lock:
            workers, self._workers = list(self._workers), set()
        for worker in workers:
            worker.stop()

    def _worker(self) -> "_Worker":
        worker = getattr(self._local, "worker", None)
        if worker is None or not worker.process.is_alive():
            if worker is not None:
                self._discard(worker, kill=True)
            worker = _Worker(self._context, self.reward_spec, self.limits, self.environment)
            self._local.worker = worker
            with self._lock:
                self._workers.add(worker)
        return worker

    def _discard(self, worker: "_Worker", kill: bool) -> None:
        self._local.worker = None
        with self._lock:
            self._workers.discard(worker)
            self.killed += kill
        worker.stop()


class _Worker:
    def __init__(self, context, reward_spec: str, limits: SampleLimits, environment: dict):
        self.connection, child_end = context.Pipe()
        self.process = context.Process(target=_serve_samples, args=(child_end, reward_spec, limits, environment),
                                       daemon=True, name="kernelscope-sample-worker")
        self.process.start()
        child_end.close()
        if not self.connection.poll(WORKER_START_TIMEOUT_S):
            self.stop()
            raise KernelscopeError(f"a scoring worker did not start within {WORKER_START_TIMEOUT_S:g} s")
        try:
            kind, value = self.connection.recv()
        except (EOFError, OSError):
            self.stop()
            raise KernelscopeError("a scoring worker exited while starting") from None
        if kind != "ready":
            self.stop()
            raise KernelscopeError(f"a scoring worker could not load the reward: {value}")

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.connection.close()


def _serve_samples(connection, reward_spec: str, limits: SampleLimits, environment: dict) -> None:
    """The worker's loop: load the reward once, then score what arrives until the pipe closes."""
    os.environ.update(environment)
    if limits.memory_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    try:
        reward_fn = load_reward(reward_spec)
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which refuses to start
        connection.send(("failed", f"{type(exc).__name__}: {exc}"))
        return
    connection.send(("ready", None))
    from kernelscope.serve.service import as_lists

    while True:
        try:
            queries, prompts, labels = connection.recv()
        except (EOFError, OSError):
            return
        try:
            answer = ("ok", as_lists(reward_fn(queries, prompts, labels)))
        except MemoryError:
            answer = ("rejected", f"scoring it needed more than the {limits.memory_bytes / 2 ** 20:.0f} MB memory limit")
        except RecursionError:
            answer = ("rejected", "it nests too deeply to analyse")
        except Exception as exc:  # noqa: BLE001 - the reward function's failure is the parent's 500
            answer = ("error", f"{type(exc).__name__}: {exc}")
        connection.send(answer)


def load_reward(spec: str):
    module_name, _, attribute = spec.partition(":")
    return getattr(importlib.import_module(module_name), attribute)
