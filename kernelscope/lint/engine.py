"""The lint engine: analyse each file (in parallel over files), then apply suppressions, rule
selection, severity overrides and the baseline, in that order.

The analysis is reached through one function, `analyze_file(text, path, settings)`, so that tests
and benchmarks can substitute their own; it must be a module-level function (it is sent to worker
processes by reference).
"""

from __future__ import annotations

import dataclasses
import functools
import os
from concurrent.futures import ProcessPoolExecutor

from kernelscope import rules
from kernelscope.errors import InputError
from kernelscope.lint.config import SettingsResolver
from kernelscope.lint.discover import discover
from kernelscope.lint.findings import FileOutcome, Finding, LintReport, fingerprints
from kernelscope.lint.suppressions import apply_suppressions, parse_suppressions


def analyze_file(text: str, path: str, settings) -> list:
    """The project's analyses on one file, as diagnostics (parse problems included, as KS901).
    The checks of rules the settings turn off for this file are skipped, except in files with
    suppression comments: whether a suppression is used (KS903) is judged against every finding."""
    from kernelscope.analyze import analyze_source

    enabled = None if parse_suppressions(text) else functools.partial(settings.is_enabled, path=path)
    result = analyze_source(text, path, arch=settings.arch, block=settings.block, grid=settings.grid,
                            bindings=dict(settings.bindings), defines=dict(settings.defines),
                            registers=settings.registers, types=dict(settings.types), enabled=enabled)
    return list(result.diagnostics)


def run_lint(paths, resolver: SettingsResolver, *, analyzer=None, jobs: int | None = None,
             baseline=None, progress=None) -> LintReport:
    """Lint files and directories. `jobs` worker processes (default: one per CPU; 1 = in process).
    `analyzer` defaults to `analyze_file`, looked up when called. `progress(done, total)`, when
    given, is called as files finish."""
    skipped: list = []
    files = discover(paths, resolver, skipped)
    analyzer = analyzer or analyze_file
    tasks = [(path, resolver.for_path(path), analyzer) for path in files]
    jobs = min(jobs or _usable_cpus(), len(tasks))
    if jobs <= 1:
        outcomes = _reporting((_lint_task(task) for task in tasks), len(tasks), progress)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            outcomes = _reporting(pool.map(_lint_task, tasks, chunksize=max(1, len(tasks) // (jobs * 8))),
                                  len(tasks), progress)
    if baseline is not None:
        outcomes = [dataclasses.replace(o, findings=tuple(baseline.new_findings(o.findings)))
                    for o in outcomes]
    return LintReport(files=outcomes, skipped=skipped)


def _reporting(outcomes, total: int, progress) -> list:
    done = []
    for outcome in outcomes:
        done.append(outcome)
        if progress is not None:
            progress(len(done), total)
    return done


def _usable_cpus() -> int:
    """CPUs this process may run on (a container or taskset may allow fewer than the machine has)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not available on macOS or Windows
        return os.cpu_count() or 1


def _lint_task(task) -> FileOutcome:
    path, settings, analyzer = task
    return lint_file(path, settings, analyzer)


def lint_file(path: str, settings, analyzer=analyze_file) -> FileOutcome:
    """Lint one file; problems reading or analysing it become the outcome's `error`."""
    from kernelscope.frontend.source import read_source

    try:
        return lint_text(read_source(path).text, path, settings, analyzer)
    except InputError as exc:
        return FileOutcome(path, error=str(exc))
    except RecursionError:
        return FileOutcome(path, error=f"{path}: input nests too deeply to analyse")
    except Exception as exc:  # one file's analysis bug must not hide the other files' findings
        return FileOutcome(path, error=f"{path}: internal error: {type(exc).__name__}: {exc} (please report this)")


def lint_text(text: str, path: str, settings, analyzer=analyze_file) -> FileOutcome:
    """Lint source text held in memory (for callers such as reward functions); errors propagate."""
    return check_text(text, path, settings, analyzer(text, path, settings))


def check_text(text: str, path: str, settings, diagnostics) -> FileOutcome:
    """Everything after the analysis: suppressions, rule selection, severity, fingerprints."""
    found = sorted(diagnostics, key=lambda d: (d.line, d.column, d.rule))
    kept, suppressed = apply_suppressions(found, parse_suppressions(text), path)
    configured, hidden = [], 0
    for d in sorted(kept, key=lambda d: (d.line, d.column, d.rule)):
        if not settings.is_enabled(d.rule, path):
            continue
        known = _is_known(d.rule)
        severity = settings.severity_for(d.rule) if known else d.severity
        if severity == "info" and not settings.show_info and not settings.is_failing(severity):
            hidden += 1     # advice (a redundant barrier, a fence to review) is opt-in
            continue
        configured.append(dataclasses.replace(d, path=path, severity=severity))
    findings = tuple(Finding(d, fp, settings.is_failing(d.severity))
                     for d, fp in zip(configured, fingerprints(configured, text)))
    lines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    return FileOutcome(path, findings, lines, suppressed, hidden_info=hidden)


def _is_known(code: str) -> bool:
    try:
        rules.get(code)
    except KeyError:
        return False
    return True
