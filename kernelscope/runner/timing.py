"""Time launches with CUDA events: full synchronize, L2 flushed before every repeat, warm-up first.

Between repeats the L2 is flushed by overwriting a buffer twice its size, and caller-supplied
`between` and `after` callbacks (the harness draws fresh inputs, poisons the outputs and checks the
previous launch there) run outside the timed interval. Only the
interval between the two events around the launch is measured; the host enqueues everything ahead
without synchronizing, so launch latency stays out of the numbers.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass


@dataclass(frozen=True)
class TimingStats:
    median_ms: float
    mean_ms: float
    min_ms: float
    max_ms: float
    cv: float            # standard deviation / mean of the repeats
    iqr_ms: float        # interquartile range
    repeats: int

    def to_json(self) -> dict:
        return {"median_ms": self.median_ms, "mean_ms": self.mean_ms, "min_ms": self.min_ms,
                "max_ms": self.max_ms, "cv": self.cv, "iqr_ms": self.iqr_ms, "repeats": self.repeats}


def summarize(samples_ms) -> TimingStats:
    samples = sorted(float(s) for s in samples_ms)
    if not samples:
        raise ValueError("no timing samples")
    mean = statistics.fmean(samples)
    spread = statistics.pstdev(samples) if len(samples) > 1 else 0.0
    if len(samples) >= 4:
        q1, _, q3 = statistics.quantiles(samples, n=4)
    else:
        q1 = q3 = samples[0]
    return TimingStats(median_ms=statistics.median(samples), mean_ms=mean, min_ms=samples[0],
                       max_ms=samples[-1], cv=spread / mean if mean > 0 else 0.0, iqr_ms=q3 - q1,
                       repeats=len(samples))


def dram_floor_ms(bytes_moved: int, peak_bytes_per_second: float | None) -> float | None:
    """The shortest time in which `bytes_moved` can cross DRAM at peak bandwidth.

    After an L2 flush, every input must come from DRAM and every output must be written, so a
    median below this floor means the kernel did not do the work it was timed for.
    """
    if not peak_bytes_per_second:
        return None
    return bytes_moved / peak_bytes_per_second * 1e3


class L2Flusher:
    """Evicts the L2 by writing a buffer twice its size (the H200 has 60 MB of L2)."""

    def __init__(self):
        import cupy

        l2_bytes = cupy.cuda.Device().attributes.get("L2CacheSize", 64 << 20)
        self._buffer = cupy.empty(max(2 * l2_bytes, 8 << 20), dtype=cupy.uint8)
        self._value = 0

    def flush(self) -> None:
        self._value = (self._value + 1) & 0xFF
        self._buffer.fill(self._value)


def time_launches(launch, *, repeats: int, warmup: int, flusher: L2Flusher, between=None, after=None) -> list[float]:
    """Milliseconds of each of `repeats` calls of `launch()`, each after an L2 flush.

    `between(index)` runs before each call (warm-up ones too, numbered from 0) and `after(index)`
    after it, both outside the interval the events bracket; neither may synchronise if the numbers
    are to stay free of host latency. `launch` may enqueue several kernels (a launch plan): the
    interval covers all of them.
    """
    import cupy

    events = []
    for index in range(warmup + repeats):
        if index == warmup:          # warm-up work done before the first timed repeat is enqueued
            cupy.cuda.Device().synchronize()
        if between is not None:
            between(index)
        timed = index >= warmup
        if timed:
            flusher.flush()
            start, end = cupy.cuda.Event(), cupy.cuda.Event()
            start.record()
        launch()
        if timed:
            end.record()
            events.append((start, end))
        if after is not None:
            after(index)
    cupy.cuda.Device().synchronize()
    return [cupy.cuda.get_elapsed_time(start, end) for start, end in events]
