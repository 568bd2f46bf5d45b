"""The reward service without HTTP: admission into a bounded queue, a fixed set of scoring threads,
and a deadline per request.

A request's samples are scored one by one, each as a job for the scoring threads, so that the
samples of one request spread over every GPU the runner's pool has (and compile in parallel), and
a slow sample holds up only itself. Admission is all or nothing: a request is queued only if all
its samples fit, otherwise it is refused at once with `Overloaded`, which a trainer can retry,
rather than left to wait without limit.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait

from kernelscope.errors import KernelscopeError


class RequestError(KernelscopeError):
    """The request is malformed (HTTP 400)."""


class TooLarge(KernelscopeError):
    """The request has more samples than the queue can ever hold (HTTP 413)."""


class Overloaded(KernelscopeError):
    """The queue has no room for the request now (HTTP 503, retry later)."""


class TimedOut(KernelscopeError):
    """The request's samples were not all scored within the deadline (HTTP 504)."""


class SampleFailed(KernelscopeError):
    """A sample of the request could not be scored within its limits (HTTP 422): it gets no score."""


class RewardService:
    """`score(payload)` -> {"rewards", "scores", "extra_logs"} for OpenRLHF's remote reward protocol.

    `reward_fn(queries, prompts, labels)` is OpenRLHF's reward function shape (the RL layer's
    `reward_func` by default); it is called with one sample at a time, from `workers` threads (a
    `SandboxedReward` runs each in a worker process that is stopped at the sample's limits).
    `labels`, when given, is a `LabelPolicy`: every label must name a problem of its corpus, and the
    reward function gets that problem's spec path instead of the client's text.
    """

    def __init__(self, reward_fn, *, workers: int = 4, queue_size: int = 256, timeout_s: float = 600.0,
                 labels=None):
        if workers < 1 or queue_size < 1 or timeout_s <= 0:
            raise ValueError("workers and queue_size must be positive, timeout_s above zero")
        self.reward_fn = reward_fn
        self.labels = labels
        self.workers = workers
        self.queue_size = queue_size
        self.timeout_s = timeout_s
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix="kernelscope-reward")
        self._lock = threading.Lock()
        self._queued = 0          # samples admitted and not yet started
        self._running = 0
        self.served = self.refused = self.timed_out = 0

    def status(self) -> dict:
        with self._lock:
            status = {"workers": self.workers, "queue_size": self.queue_size, "queued": self._queued,
                      "running": self._running, "served": self.served, "refused": self.refused,
                      "timed_out": self.timed_out, "timeout_s": self.timeout_s}
        if hasattr(self.reward_fn, "status"):
            status.update(self.reward_fn.status())
        return status

    def score(self, payload) -> dict:
        queries, prompts, labels = parse_payload(payload)
        if self.labels is not None:
            labels = self.labels.resolve_all(labels)
        started = time.monotonic()
        futures = self._admit(queries, prompts, labels)
        done, not_done = wait(futures, timeout=self.timeout_s - (time.monotonic() - started))
        if not_done:
            self._abandon(not_done)
            with self._lock:
                self.timed_out += 1
            raise TimedOut(f"timed out after {self.timeout_s:g} s with {len(done)} of {len(futures)} samples scored")
        with self._lock:
            self.served += 1
        return merge([_result(index, len(futures), future) for index, future in enumerate(futures)])

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
        if hasattr(self.reward_fn, "close"):
            self.reward_fn.close()

    def _admit(self, queries, prompts, labels) -> list:
        count = len(queries)
        if count > self.queue_size:
            raise TooLarge(f"the request has {count} samples but the queue holds at most {self.queue_size}; "
                           "send smaller batches or start the service with a larger --queue-size")
        with self._lock:
            if self._queued + count > self.queue_size:
                self.refused += 1
                raise Overloaded(f"overloaded: {self._queued} samples queued and {self._running} running, room "
                                 f"for {self.queue_size - self._queued}, the request has {count}; retry later")
            self._queued += count
        return [self._executor.submit(self._score_one, query, prompt, label)
                for query, prompt, label in zip(queries, prompts, labels)]

    def _score_one(self, query, prompt, label) -> dict:
        with self._lock:
            self._queued -= 1
            self._running += 1
        try:
            return as_lists(self.reward_fn([query], [prompt], [label]))
        finally:
            with self._lock:
                self._running -= 1

    def _abandon(self, futures) -> None:
        """Drop the samples of a timed-out request that have not started; running ones finish unheard."""
        cancelled = sum(1 for future in futures if future.cancel())
        with self._lock:
            self._queued -= cancelled


def _result(index: int, count: int, future) -> dict:
    from kernelscope.serve.sandbox import SampleRejected

    try:
        return future.result()
    except SampleRejected as exc:
        raise SampleFailed(f"sample {index} of {count} has no score: {exc}") from None


def parse_payload(payload) -> tuple[list, list, list]:
    """OpenRLHF posts {"query": [...], "prompts": [...], "labels": [...]}; prompts and labels may be absent."""
    if not isinstance(payload, dict):
        raise RequestError("the body must be a JSON object with 'query', 'prompts' and 'labels'")
    queries = payload.get("query", payload.get("queries"))
    if not isinstance(queries, list) or not all(isinstance(q, str) for q in queries):
        raise RequestError("'query' must be a list of strings (prompt + response)")
    prompts = payload.get("prompts")
    labels = payload.get("labels")
    prompts = [""] * len(queries) if prompts is None else prompts
    labels = [None] * len(queries) if labels is None else labels
    if not isinstance(prompts, list) or not all(isinstance(p, str) for p in prompts):
        raise RequestError("'prompts' must be a list of strings")
    if not isinstance(labels, list):
        raise RequestError("'labels' must be a list")
    if not len(queries) == len(prompts) == len(labels):
        raise RequestError(f"'query', 'prompts' and 'labels' differ in length "
                           f"({len(queries)}, {len(prompts)}, {len(labels)})")
    return queries, prompts, labels


def as_lists(answer) -> dict:
    """A reward function's answer for one sample, as JSON-ready lists (torch tensors included)."""
    if not isinstance(answer, dict):
        answer = {"rewards": answer}
    if "rewards" not in answer:
        raise KernelscopeError("the reward function's answer has no 'rewards'")
    lists = {key: _floats(answer[key]) for key in ("rewards", "scores") if key in answer}
    lists["extra_logs"] = {key: _floats(value) for key, value in (answer.get("extra_logs") or {}).items()}
    return lists


def merge(answers: list) -> dict:
    """Per-sample answers into one, in order. A log a sample lacks counts as 0 for it (the RL layer
    omits the components of gates a sample never reached, and the share of outcomes it did not have)."""
    rewards = [value for answer in answers for value in answer["rewards"]]
    scores = [value for answer in answers for value in answer.get("scores", answer["rewards"])]
    keys = sorted({key for answer in answers for key in answer["extra_logs"]})
    logs = {key: [value for answer in answers
                  for value in answer["extra_logs"].get(key, [0.0] * len(answer["rewards"]))] for key in keys}
    return {"rewards": rewards, "scores": scores, "extra_logs": logs}


def _floats(value) -> list:
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (int, float)):
        return [float(value)]
    return [float(v) for v in value]
