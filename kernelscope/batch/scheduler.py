"""Backend-independent bookkeeping of a batch: what is compiled, queued, running, retried and done.

The backends (local threads, Ray actors) only submit work and report completions; every decision lives
here, so that both retry alike: a candidate whose GPU slot broke (the worker could not start, a Ray
actor died) goes back to the front of the queue until it has used `max_attempts`, then gets a
`harness_error` record; a slot that breaks `slot_failure_limit` times in a row is retired; a result
for a candidate that already has one is dropped, so a retry can never yield a duplicate.
A candidate's own failures (wrong answers, faults, timeouts) are verdicts, not retries.

Placement prefers a slot that has already run the candidate's problem: a worker measures each
problem's reference once and reuses it, so scattering one problem's candidates over every GPU
repeats that work on each (measured on two H200s: it cost a fifth of the two-GPU speedup).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from kernelscope.batch.evaluator import Prepared
from kernelscope.batch.items import BatchItem


@dataclass
class BatchOutcome:
    """One candidate's final record, as streamed: the RunResult plus where and how often it ran."""
    index: int
    result: object                 # RunResult
    slot: object = None            # the GPU slot that produced it; None when it needed no GPU
    attempts: int = 0              # GPU attempts (0: rejected or failed to compile)

    def to_json(self) -> dict:
        return {"index": self.index, "slot": self.slot, "attempts": self.attempts, **self.result.to_json()}


LOOK_AHEAD = 256


class Scheduler:
    def __init__(self, items, slots, *, max_attempts: int = 3, slot_failure_limit: int = 2):
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self.items = {item.index: item for item in items}
        self.max_attempts = max_attempts
        self.slot_failure_limit = slot_failure_limit
        self.idle = deque(slots)
        self.live_slots = set(slots)
        self.ready: deque[Prepared] = deque()
        self.attempts = {index: 0 for index in self.items}
        self.done: set[int] = set()
        self.duplicates = 0
        self._slot_failures = {slot: 0 for slot in slots}
        self._problems_seen = {slot: set() for slot in slots}

    @property
    def finished(self) -> bool:
        return len(self.done) == len(self.items)

    def assignments(self) -> list[tuple[object, Prepared]]:
        """Pair queued candidates with idle slots; each pairing counts as an attempt."""
        pairs = []
        while self.ready and self.idle:
            slot = self.idle.popleft()
            prepared = self._take_for(slot)
            self.attempts[prepared.item.index] += 1
            self._problems_seen[slot].add(_problem(prepared))
            pairs.append((slot, prepared))
        return pairs

    def _take_for(self, slot) -> Prepared:
        """The first queued candidate of a problem this slot knows, within a short look-ahead (so that
        queue order still roughly holds); the head of the queue otherwise."""
        seen = self._problems_seen[slot]
        for position, prepared in enumerate(self.ready):
            if position == LOOK_AHEAD:
                break
            if _problem(prepared) in seen:
                del self.ready[position]
                return prepared
        return self.ready.popleft()

    def prepared(self, prepared: Prepared) -> list[BatchOutcome]:
        if prepared.finished:
            return self._complete(prepared.item.index, prepared.result, None)
        self.ready.append(prepared)
        return self._strand_if_no_slots()

    def prepare_failed(self, item: BatchItem, error: BaseException) -> list[BatchOutcome]:
        return self._complete(item.index, harness_error(item, f"preparing the candidate failed: {_describe(error)}"),
                              None)

    def ran(self, slot, prepared: Prepared, result) -> list[BatchOutcome]:
        self._slot_failures[slot] = 0
        self.release(slot)
        return self._complete(prepared.item.index, result, slot)

    def run_failed(self, slot, prepared: Prepared, error: BaseException, *, release: bool = True) -> list[BatchOutcome]:
        """The slot, not the candidate, failed: retry elsewhere or give up on this candidate.
        `release=False` keeps the slot out of use until `release(slot)` (a Ray actor restarting)."""
        self._slot_failures[slot] += 1
        if self._slot_failures[slot] >= self.slot_failure_limit:
            self.live_slots.discard(slot)
        if release:
            self.release(slot)
        index = prepared.item.index
        outcomes = []
        if index in self.done:
            self.duplicates += 1
        elif self.attempts[index] < self.max_attempts and self.live_slots:
            self.ready.appendleft(prepared)
        else:
            message = f"no GPU slot could run it ({self.attempts[index]} attempts; last: {_describe(error)})"
            outcomes = self._complete(index, harness_error(prepared.item, message), slot)
        return outcomes + self._strand_if_no_slots()

    def release(self, slot) -> None:
        if slot in self.live_slots:
            self.idle.append(slot)

    def retire(self, slot) -> list[BatchOutcome]:
        """The slot is gone for good (say, a Ray actor out of restarts)."""
        self.live_slots.discard(slot)
        if slot in self.idle:
            self.idle.remove(slot)
        return self._strand_if_no_slots()

    def _complete(self, index: int, result, slot) -> list[BatchOutcome]:
        if index in self.done:
            self.duplicates += 1
            return []
        self.done.add(index)
        return [BatchOutcome(index=index, result=result, slot=slot, attempts=self.attempts[index])]

    def _strand_if_no_slots(self) -> list[BatchOutcome]:
        """Every slot is retired: queued candidates can never run, so say so rather than wait forever."""
        outcomes = []
        while self.ready and not self.live_slots:
            prepared = self.ready.popleft()
            outcomes += self._complete(prepared.item.index,
                                       harness_error(prepared.item, "every GPU slot failed; nothing left to run it"),
                                       None)
        return outcomes


def harness_error(item: BatchItem, message: str):
    """The record of a candidate the harness could not evaluate (not the candidate's fault)."""
    from kernelscope.runner.results import RunResult

    return RunResult(problem=item.spec.name, kernel=item.kernel, candidate=item.label, flags=["harness_error"],
                     error=message).finish()


def _problem(prepared: Prepared):
    return prepared.item.spec.path


def _describe(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
