"""Lint findings as `path:line:col: severity: CODE message`, one per line: the compiler's layout,
which editors and CI problem matchers parse (the severity decides whether a finding fails the run)."""

from __future__ import annotations


def render_text(report) -> str:
    lines = [f"{d.path}:{d.line}:{d.column}: {d.severity}: {d.rule} {d.message}"
             for d in (f.diagnostic for f in report.findings)]
    return "".join(line + "\n" for line in lines)


def render_summary(report) -> str:
    """One line for stderr: how much was checked and found."""
    counts = report.counts()
    total = sum(counts.values())
    files = len(report.files)
    checked = f"{files} file{'s' if files != 1 else ''} ({report.lines} lines)"
    hidden = getattr(report, "hidden_info", 0)
    tail = f"; {hidden} info finding{'s' if hidden != 1 else ''} not shown (--show-info)" if hidden else ""
    if not total:
        return f"kernelscope: no findings in {checked}{tail}"
    parts = ", ".join(f"{n} {level}{'s' if n != 1 and level != 'info' else ''}"
                      for level, n in counts.items() if n)
    return f"kernelscope: {total} finding{'s' if total != 1 else ''} ({parts}) in {checked}{tail}"
