"""What `kernelscope run --batch` does, without click: the command passes its options through.

Output formats: `json` streams one JSON object per line (JSON Lines) as each candidate finishes, with
`index` (its line or position in the batch), `slot` (the GPU or actor) and `attempts` beside the
record `kernelscope run` writes; `text` streams one line per candidate; `csv` is written at the end,
in batch order, in `kernelscope run --format csv`'s columns.
"""

from __future__ import annotations

import json
import sys

from kernelscope.batch.api import iter_batch
from kernelscope.batch.evaluator import EvalOptions


def run_batch_command(batch_path, *, workers=None, backend="local", address=None, compile_workers=None,
                      sizes=(), trials=3, repeats=30, warmup=3, timeout_s=60.0, compiler="nvrtc", arch=None,
                      allow=(), seed=None, fmt="json", output=None) -> int:
    """Evaluate every candidate of `batch_path` and write the records; returns the exit status
    (0: every candidate correct, 1: some are not)."""
    from kernelscope.runner.results import results_to_csv

    options = EvalOptions(sizes=tuple(sizes) or None, trials=trials, repeats=repeats, warmup=warmup,
                          timeout_s=timeout_s, backend=compiler, arch=arch, allow=tuple(allow), seed=seed)
    stream = iter_batch(batch_path, options, backend=backend, workers=workers, address=address,
                        compile_workers=compile_workers)
    outcomes = []
    handle = open(output, "w", encoding="utf-8") if output else sys.stdout
    try:
        for outcome in stream:
            outcomes.append(outcome)
            if fmt == "json":
                handle.write(json.dumps(outcome.to_json()) + "\n")
            elif fmt == "text":
                handle.write(text_line(outcome))
            handle.flush()       # a reader (a trainer, `tail -f`) sees each result as it lands
        if fmt == "csv":
            handle.write(results_to_csv([o.result for o in sorted(outcomes, key=lambda o: o.index)]))
    finally:
        if output:
            handle.close()
    return 0 if outcomes and all(o.result.correct for o in outcomes) else 1


def text_line(outcome) -> str:
    result = outcome.result
    parts = [f"[{outcome.index}] {result.problem}/{result.candidate or result.kernel}: "
             f"{'correct' if result.correct else 'INCORRECT'}"]
    if result.time_ms is not None:
        speedup = f", {result.speedup:.2f}x" if result.speedup else ""
        parts.append(f"{result.time_ms * 1e3:.1f} us{speedup}")
    if result.flags:
        parts.append("flags: " + ",".join(result.flags))
    if result.error:
        parts.append(result.error.splitlines()[0])
    if outcome.slot is not None:
        parts.append(f"on {outcome.slot}" + (f" after {outcome.attempts} attempts" if outcome.attempts > 1 else ""))
    return "; ".join(parts) + "\n"
