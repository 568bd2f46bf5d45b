"""What a lint run produces: findings (a diagnostic plus what the reporters need) and the report."""

from __future__ import annotations

import hashlib
from dataclasses import field

from kernelscope.model import SEVERITIES, Diagnostic
from kernelscope.records import record


@record(frozen=True)
class Finding:
    diagnostic: Diagnostic       # severity already reflects the configuration
    fingerprint: str             # stable across unrelated edits (see `fingerprints`)
    failing: bool                # at or above the failing severity of its file's settings


@record(frozen=True)
class FileOutcome:
    path: str
    findings: tuple = ()
    lines: int = 0
    suppressed: int = 0
    error: str | None = None     # the file could not be read or analysed at all
    hidden_info: int = 0         # info findings left out (shown with --show-info)


@record
class LintReport:
    files: list = field(default_factory=list)        # FileOutcome, in path order
    skipped: list = field(default_factory=list)      # named files that are not C/C++/CUDA source

    @property
    def findings(self) -> list:
        return [f for outcome in self.files for f in outcome.findings]

    @property
    def errors(self) -> list:
        return [(o.path, o.error) for o in self.files if o.error]

    @property
    def lines(self) -> int:
        return sum(o.lines for o in self.files)

    def counts(self) -> dict:
        counts = {level: 0 for level in reversed(SEVERITIES)}
        for finding in self.findings:
            counts[finding.diagnostic.severity] += 1
        return counts

    @property
    def hidden_info(self) -> int:
        return sum(o.hidden_info for o in self.files)

    def has_failures(self) -> bool:
        return any(f.failing for f in self.findings)


def fingerprints(diagnostics, text: str) -> list:
    """One fingerprint per diagnostic, from what it is about rather than where it is: the rule,
    the kernel, the text of its source line with whitespace collapsed, and how many identical
    findings precede it in the file. Moving code up or down keeps the fingerprint; editing the
    flagged line changes it. Diagnostics must be in file order."""
    lines = text.splitlines()
    seen: dict = {}
    result = []
    for d in diagnostics:
        source = " ".join(lines[d.line - 1].split()) if 0 < d.line <= len(lines) else ""
        key = (d.rule, d.kernel or "", source)
        occurrence = seen.get(key, 0)
        seen[key] = occurrence + 1
        digest = hashlib.sha256("\0".join((*key, str(occurrence))).encode("utf-8")).hexdigest()
        result.append(digest[:32])
    return result
