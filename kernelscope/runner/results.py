"""What an evaluation produces: per-size verdicts and the candidate's overall result, as JSON or CSV."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import asdict, dataclass, field

SCHEMA = "kernelscope.run/1"

# Flags that make a candidate incorrect; the others (implausible_speedup) are warnings.
FAILING_FLAGS = frozenset({"mismatch", "unwritten_output", "out_of_bounds_write", "constant_output",
                           "input_echo", "timeout", "fault", "timing_divergence", "compile_error",
                           "rejected", "launch_error", "input_mutated", "state_carried"})


@dataclass
class SizeVerdict:
    size: str
    correct: bool
    trials: int
    max_abs_error: float = 0.0
    max_rel_error: float = 0.0
    mismatched_elements: int = 0
    first_mismatch: dict | None = None      # {"output", "trial", "index"}
    flags: list = field(default_factory=list)
    time_ms: float | None = None
    time_spread: float | None = None        # coefficient of variation of the repeats
    timing: dict | None = None              # full TimingStats.to_json()
    reference_time_ms: float | None = None
    speedup: float | None = None
    dram_floor_ms: float | None = None      # inputs read and outputs written once at peak bandwidth
    compute_floor_ms: float | None = None   # the spec's FLOPs at the GPU's peak rate for its precision

    def to_json(self) -> dict:
        return _finite(asdict(self))


@dataclass
class RunResult:
    """One candidate against one problem.

    `time_ms`, `time_spread` and `reference_time_ms` are those of the last size of the spec (by
    convention the largest); `speedup` is the geometric mean of the per-size speedups.
    """
    problem: str
    kernel: str | None
    candidate: str = ""
    compiled: bool = False
    correct: bool = False
    compile_log: str = ""
    compile_seconds: float = 0.0
    compile_cached: bool = False
    sizes: list = field(default_factory=list)
    time_ms: float | None = None
    time_spread: float | None = None
    reference_time_ms: float | None = None
    speedup: float | None = None
    flags: list = field(default_factory=list)
    error: str | None = None
    registers: int | None = None
    wall_seconds: float = 0.0

    def finish(self) -> "RunResult":
        """Derive the summary fields from the per-size verdicts."""
        for verdict in self.sizes:
            for flag in verdict.flags:
                if flag not in self.flags:
                    self.flags.append(flag)
        self.correct = (self.compiled and bool(self.sizes) and all(v.correct for v in self.sizes)
                        and not (set(self.flags) & FAILING_FLAGS))
        timed = [v for v in self.sizes if v.time_ms is not None]
        if timed:
            self.time_ms, self.time_spread = timed[-1].time_ms, timed[-1].time_spread
            self.reference_time_ms = timed[-1].reference_time_ms
        speedups = [v.speedup for v in self.sizes if v.speedup]
        if speedups and len(speedups) == len(self.sizes):
            self.speedup = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
        return self

    def to_json(self) -> dict:
        data = asdict(self)
        data["sizes"] = [v.to_json() for v in self.sizes]
        data["schema"] = SCHEMA
        return _finite(data)

    def csv_rows(self) -> list[dict]:
        """One row per size, with the candidate's identity repeated (long format for pandas)."""
        rows = []
        for verdict in self.sizes or [SizeVerdict(size="", correct=False, trials=0)]:
            rows.append({
                "problem": self.problem, "candidate": self.candidate, "kernel": self.kernel,
                "compiled": self.compiled, "correct": self.correct, "size": verdict.size,
                "size_correct": verdict.correct, "trials": verdict.trials,
                "max_abs_error": verdict.max_abs_error, "max_rel_error": verdict.max_rel_error,
                "mismatched_elements": verdict.mismatched_elements, "time_ms": verdict.time_ms,
                "time_spread": verdict.time_spread, "reference_time_ms": verdict.reference_time_ms,
                "speedup": verdict.speedup, "registers": self.registers,
                "flags": ";".join(sorted(set(self.flags) | set(verdict.flags))),
                "error": self.error or "",
            })
        return rows


CSV_FIELDS = ["problem", "candidate", "kernel", "compiled", "correct", "size", "size_correct", "trials",
              "max_abs_error", "max_rel_error", "mismatched_elements", "time_ms", "time_spread",
              "reference_time_ms", "speedup", "registers", "flags", "error"]


def results_to_csv(results) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for result in results:
        writer.writerows(result.csv_rows())
    return buffer.getvalue()


def _finite(value):
    """JSON has no NaN or infinity: write them as null or a very large number's string."""
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value
