"""The message a model reads before its next attempt: what went wrong, where, and what to change.

Short on purpose: a refinement turn pays for every token of feedback in context length, and a model acts
on the first problem it is told about. So the message leads with the gate that failed (no code, compile
error, rejection, wrong output), and only a passing kernel gets performance advice: error-severity
findings first (a divergent barrier can hang or corrupt, whatever it costs in speed), then the rest,
worst first.
"""

from __future__ import annotations

import re

from kernelscope.rl.reward import Reward
from kernelscope.rl.structure import ideal_sectors

MAX_COMPILE_LINES = 8
MAX_HINTS = 3


def build_feedback(reward: Reward, task=None, *, counters: dict | None = None, max_chars: int = 1500) -> str:
    kernel = getattr(task, "kernel", None) or "the kernel"
    lines = _gate_lines(reward, kernel)
    if reward.outcome == "ok":
        lines += _launch_line(reward) + _performance_lines(reward, counters)
    text = "\n".join(lines)
    return text if len(text) <= max_chars else text[:max_chars - 3].rstrip() + "..."


def _gate_lines(reward: Reward, kernel: str) -> list[str]:
    outcome = reward.outcome
    if outcome == "no_code":
        problem = reward.extraction.problem if reward.extraction else "no code found"
        return [f"Your answer was not usable: {problem}.",
                f"Reply with one ```cuda block that defines extern \"C\" __global__ void {kernel}(...)."]
    if outcome == "syntax_error":
        errors = reward.errors
        where = "; ".join(f"line {e.get('line')}: {e.get('message')}" for e in errors[:3]) or "no kernel was found"
        return [f"The code does not parse: {where}.", "Fix the syntax and send the whole kernel again."]
    if outcome == "compile_error":
        log = (getattr(reward.run, "compile_log", "") or reward.compile_log
               or "\n".join(f"error: {e.get('message')}" for e in reward.errors))
        return ["The kernel does not compile:", *_compile_errors(log),
                "Fix these errors; keep the kernel name and argument list unchanged."]
    if outcome == "hack":
        reasons = "; ".join(f"{name.replace('_', ' ')} ({why})" for name, why in reward.hacks.items())
        return [f"Rejected: {reasons}.",
                "The kernel must compute every output element from the inputs on every call, in the "
                "problem's precision, with no host calls, timers, streams or state kept between calls."]
    if outcome == "incorrect":
        return ["The output is wrong.", *_mismatch_lines(reward.run),
                "Check the index arithmetic, the bounds guard and that every output element is written."]
    return [_verdict_line(reward)]


def _launch_line(reward: Reward) -> list[str]:
    """With a launch plan, say which launch the advice is about: the one launching the most threads."""
    if len(reward.launches) < 2:
        return []
    number, launch = max(enumerate(reward.launches, 1), key=lambda item: item[1]["threads"])
    dims = lambda d: "x".join(str(v) for v in d if v != 1) or "1"
    return [f"Advice below is about launch #{number} of your plan ({launch['kernel']}, grid {dims(launch['grid'])}, "
            f"block {dims(launch['block'])}), the one with the most threads."]


def _compile_errors(log: str) -> list[str]:
    errors = [line.strip() for line in log.splitlines() if re.search(r"\berror\b", line, re.IGNORECASE)]
    chosen = errors or [line.strip() for line in log.splitlines() if line.strip()]
    return [f"  {line}" for line in chosen[:MAX_COMPILE_LINES]] or ["  (the compiler printed nothing)"]


def _mismatch_lines(run) -> list[str]:
    """One line per failing size (the runner's SizeVerdict JSON): where the first error is, how large."""
    document = run.to_json() if hasattr(run, "to_json") else (run if isinstance(run, dict) else {})
    lines = []
    for verdict in document.get("sizes", []):
        if verdict.get("correct"):
            continue
        text = f"  size {verdict.get('size')}:"
        if verdict.get("mismatched_elements"):
            text += f" {verdict['mismatched_elements']} elements wrong"
            first = verdict.get("first_mismatch") or {}
            if first:
                text += (f", first in {first.get('output', 'the output')} at index {first.get('index')}"
                         f" (trial {first.get('trial')})")
            text += f", max abs error {_g(verdict.get('max_abs_error'))} (relative {_g(verdict.get('max_rel_error'))})"
        flags = [flag.replace("_", " ") for flag in verdict.get("flags", []) if flag != "mismatch"]
        if flags:
            text += f" [{', '.join(flags)}]"
        lines.append(text)
    return lines[:4]


def _g(value) -> str:
    return "?" if value is None else f"{float(value):.3g}"


def _verdict_line(reward: Reward) -> str:
    if reward.speedup is None:
        return "The kernel parses and passes the static checks (it was not run)."
    text = f"Correct. {reward.speedup:.2f}x the reference's speed"
    time_ms = getattr(reward.run, "time_ms", None)
    if isinstance(time_ms, (int, float)) and time_ms > 0:
        text += f" ({time_ms:.4g} ms"
        floor = _dram_floor_ms(reward.run)
        if floor:  # how far from moving its data once at full bandwidth: the headroom a kernel has
            text += f"; moving its inputs and outputs once at full memory bandwidth takes {floor:.4g} ms"
        text += ")"
    return text + "."


def _dram_floor_ms(run) -> float | None:
    document = run.to_json() if hasattr(run, "to_json") else {}
    sizes = document.get("sizes") or []
    floor = sizes[-1].get("dram_floor_ms") if sizes else None
    return floor if isinstance(floor, (int, float)) and floor > 0 else None


def _performance_lines(reward: Reward, counters: dict | None) -> list[str]:
    hints = []  # (how bad, source line or None, text); error findings go in `errors` and lead
    kernel = reward.analysis or {}
    for access in kernel.get("accesses", []):
        line, expr = access.get("line"), access.get("expr")
        sectors = access.get("sectors_per_request")
        needed = ideal_sectors(access)
        if access.get("space") == "global" and isinstance(sectors, (int, float)) and sectors > 1.5 * needed:
            hints.append((sectors / needed, line,
                          f"line {line}: `{expr}` touches {sectors:.3g} sectors per warp request where "
                          f"{needed:.3g} would do; make consecutive threads read consecutive addresses "
                          "(or stage through shared memory)."))
        ways = access.get("bank_ways")
        if access.get("space") == "shared" and isinstance(ways, (int, float)) and ways > 1:
            hints.append((ways, line, f"line {line}: `{expr}` has a {ways:g}-way bank conflict; "
                                      "pad the shared array's row by one element."))
    occupancy = (kernel.get("occupancy") or {}).get("theoretical_occupancy")
    if isinstance(occupancy, (int, float)) and occupancy < 0.5:
        limiter = (kernel.get("occupancy") or {}).get("limiter", "resources")
        hints.append((0.5 / max(occupancy, 0.05), None, f"occupancy is {occupancy:.0%}, limited by {limiter}; "
                                                        "use fewer registers or less shared memory."))
    hinted_lines = {line for _, line, _ in hints}  # lint's memory rules repeat these; say it once
    errors = []
    for diagnostic in reward.diagnostics:
        severity, line = diagnostic.get("severity"), diagnostic.get("line")
        text = f"line {line}: {diagnostic.get('message')} [{diagnostic.get('rule')}]"
        if severity == "error":
            errors.append((0.0, line, text))
        elif severity == "warning" and line not in hinted_lines:
            hints.append((1.5, line, text))
    if counters:
        measured = ", ".join(f"{name} = {_g(value)}" for name, value in list(counters.items())[:4])
        hints.append((1.0, None, f"measured: {measured}"))
    hints.sort(key=lambda hint: -hint[0])
    if not hints and not errors:
        return ["No structural problem found; try more work per thread or vectorised loads to go faster."]
    chosen = (errors + hints)[:max(MAX_HINTS, len(errors))]  # every error is told, whatever the count
    heading = "Fix first, then make it faster:" if errors else "To make it faster:"
    return [heading, *(f"- {text}" for _, _, text in chosen)]
