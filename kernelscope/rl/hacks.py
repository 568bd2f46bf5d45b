"""Reward hacks: the ones visible in the source, and the runner's flags that mean the same.

A generated kernel under reward pressure learns to please the checker instead of solving the problem
(DESIGN.md, "Evaluating untrusted kernels"). The runner catches most of it by running the kernel; this
module adds what the text alone betrays, so that the static-only reward cannot be gamed the same way.
"""

from __future__ import annotations

import re

# Runner flags (kernelscope.runner.results) that mean the candidate cheated or broke the harness's
# guarantees: always the reward's floor. A plain "mismatch" or "launch_error" is an honest failure.
RUNNER_HACK_FLAGS = frozenset({
    "implausible_speedup", "constant_output", "input_echo", "unwritten_output", "out_of_bounds_write",
    "timeout", "fault", "timing_divergence", "rejected",
})

_PERSISTENT_STATE = re.compile(r"^\s*(?:static\s+)?__device__\s+(?!.*\()(?!.*\bconst\b)[\w\s:<>*]+\b\w+\s*"
                               r"(?:\[[^\]]*\]\s*)*(?:=[^;]*)?;", re.MULTILINE)
# CUDA's own half-precision names only: a bare `half` is as often a loop variable ("for half = n/2").
_LOW_PRECISION = re.compile(r"\b(?:__half2?|__nv_bfloat16x?2?|__float2half\w*|__float2bfloat16\w*|__h(?:add|mul|fma)2?)\b")


def _strip_comments(code: str) -> str:
    code = re.sub(r"/\*.*?\*/", " ", code, flags=re.DOTALL)
    return re.sub(r"//[^\n]*", " ", code)


def source_hacks(code: str, *, full_precision: bool = True) -> dict[str, str]:
    """Hacks the text shows: {name: reason}. Host code and escapes from the measured launch (streams,
    events, timers, device-side launches) are judged by the runner's own source policy, so that static
    and full rewards refuse the same things. `full_precision`: the problem's data is fp32/fp64, so
    computing in half precision lowers accuracy behind the tolerance's back."""
    from kernelscope.runner.source_policy import PolicyError, check_source

    found = {}
    try:
        check_source(code)
    except PolicyError as exc:
        found["host_code"] = str(exc)
    text = _strip_comments(code)
    if _PERSISTENT_STATE.search(text):
        found["persistent_state"] = "keeps mutable state in a __device__ global, which can cache results across calls"
    if full_precision and _LOW_PRECISION.search(text):
        found["lowered_precision"] = "computes in half precision on single/double precision data"
    return found


def structural_hacks(kernel: dict, inputs) -> dict[str, str]:
    """Hacks the analysis shows: an output cannot be a function of an input the kernel never reads."""
    accesses = kernel.get("accesses", [])
    loaded = {a.get("array") for a in accesses if a.get("space") == "global" and a.get("op") in ("load", "atomic")}
    found = {}
    unread = [name for name in inputs if name not in loaded]
    if unread:
        found["ignores_inputs"] = f"never reads {', '.join(unread)}, so the output cannot depend on it"
    if not any(a.get("space") == "global" and a.get("op") in ("store", "atomic") for a in accesses):
        found["writes_nothing"] = "never writes to global memory"
    return found


def runner_hacks(flags) -> dict[str, str]:
    return {flag: "flagged by the runner" for flag in flags if flag in RUNNER_HACK_FLAGS}
