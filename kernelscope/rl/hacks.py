"""Reward hacks: the ones visible in the source, and the runner's flags that mean the same.

A generated kernel under reward pressure learns to please the checker instead of solving the problem
(docs/spec-format.md says how the runner evaluates untrusted kernels). The runner catches most of it by running the kernel; this
module adds what the text alone betrays, so that the static-only reward cannot be gamed the same way.

What the text cannot settle is left to the runner. A `__device__` global is not a hack by itself:
honest kernels keep counters in one (a grid-wide ticket for the last block of a reduction). Whether
one carried an answer from one launch to the next is the runner's `state_carried` evidence (it runs
the kernel on fresh inputs and compares), so only full mode can reject it.
"""

from __future__ import annotations

import re

# Runner flags (kernelscope.runner.results) that mean the candidate cheated or broke the harness's
# guarantees: always the reward's floor. A plain "mismatch" or "launch_error" is an honest failure.
RUNNER_HACK_FLAGS = frozenset({
    "implausible_speedup", "constant_output", "input_echo", "unwritten_output", "out_of_bounds_write",
    "timeout", "fault", "timing_divergence", "rejected", "state_carried", "input_mutated",
})
# CUDA's own half-precision names only: a bare `half` is as often a loop variable ("for half = n/2").
_LOW_PRECISION = re.compile(r"\b(?:__half2?|__nv_bfloat16x?2?|__float2half\w*|__float2bfloat16\w*|__h(?:add|mul|fma)2?)\b")


def source_hacks(code: str, *, full_precision: bool = True) -> dict[str, str]:
    """Hacks the text shows: {name: reason}. Host code and escapes from the measured launch (streams,
    events, timers, device-side launches) are judged by the runner's own source policy, so that static
    and full rewards refuse the same things. `full_precision`: the problem's data is fp32/fp64, so
    computing in half precision lowers accuracy behind the tolerance's back."""
    from kernelscope.runner.source_policy import PolicyError, check_source, strip_comments_and_strings

    found = {}
    try:
        check_source(code)
    except PolicyError as exc:
        found["host_code"] = str(exc)
    text = strip_comments_and_strings(code)
    if full_precision and _LOW_PRECISION.search(text):
        found["lowered_precision"] = "computes in half precision on single/double precision data"
    return found


def input_parameters(kernel: dict, arguments) -> list[str]:
    """The candidate's names for the task's inputs. The harness passes arguments by position, so the
    task's i-th argument is whatever the kernel calls its i-th parameter (`x, y, z` for `a, b, c` is
    fine); the task's own names stand in only where the analysis lists no parameters."""
    parameters = [p.get("name") for p in kernel.get("params") or []]
    names = []
    for index, argument in enumerate(arguments):
        if getattr(argument, "role", None) != "input":
            continue
        if not parameters:
            names.append(argument.name)
        elif index < len(parameters):
            names.append(parameters[index])
    return names


def structural_hacks(kernel: dict, arguments=()) -> dict[str, str]:
    """Hacks the analysis shows: an output cannot be a function of an input the kernel never reads.
    `arguments`: the task's Argument records in launch order."""
    accesses = kernel.get("accesses", [])
    loaded = {a.get("array") for a in accesses if a.get("space") == "global" and a.get("op") in ("load", "atomic")}
    found = {}
    unread = [name for name in input_parameters(kernel, arguments) if name not in loaded]
    if unread:
        found["ignores_inputs"] = f"never reads {', '.join(unread)}, so the output cannot depend on it"
    if not any(a.get("space") == "global" and a.get("op") in ("store", "atomic") for a in accesses):
        found["writes_nothing"] = "never writes to global memory"
    return found


def runner_hacks(flags) -> dict[str, str]:
    return {flag: "flagged by the runner" for flag in flags if flag in RUNNER_HACK_FLAGS}
