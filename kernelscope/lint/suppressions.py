"""Inline suppressions written in comments, and the findings they leave unused.

    x = a[i * n];          // kernelscope: ignore[KS101]         this line
    // kernelscope: ignore[KS101, KS102]                          the next line of code
    // kernelscope: disable[KS202]  ...  // kernelscope: enable[KS202]   a region
    // kernelscope: ignore-file[KS4]                              the whole file (codes or prefixes)

Without a bracket, `ignore`, `disable` and `ignore-file` cover every code. Suppressions are matched
against everything the analyses found, before rule selection, so whether one is used does not
depend on `--select`; a suppression that matched nothing is reported as KS903.
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import Optional

from kernelscope import rules
from kernelscope.model import Diagnostic
from kernelscope.records import record

UNUSED_CODE = "KS903"

_DIRECTIVE = re.compile(r"kernelscope:\s*(ignore-file|ignore|disable|enable)\b(?:\[([^\]]*)\])?")


@record(frozen=True)
class Comment:
    line: int
    column: int
    text: str
    own_line: bool      # nothing but whitespace before it on its line
    start: int          # offsets of the whole comment, delimiters included
    end: int


@record
class Suppression:
    kind: str                    # ignore | disable | ignore-file
    line: int
    column: int
    codes: Optional[tuple]       # None: every code
    first: int                   # lines covered, inclusive
    last: int
    used: set = field(default_factory=set)

    def covers(self, diagnostic: Diagnostic) -> bool:
        if not self.first <= diagnostic.line <= self.last:
            return False
        return self.codes is None or any(diagnostic.rule.startswith(code) for code in self.codes)

    def mark_used(self, diagnostic: Diagnostic) -> None:
        self.used.add(diagnostic.rule if self.codes is None else
                      next(code for code in self.codes if diagnostic.rule.startswith(code)))


def find_comments(text: str) -> list:
    """Every // and /* */ comment, skipping string and character literals."""
    comments = []
    i, line, line_start, n = 0, 1, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line, line_start = line + 1, i + 1
            i += 1
        elif ch in "\"'":
            i = _skip_literal(text, i)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            comments.append(Comment(line, i - line_start + 1, text[i + 2:end],
                                    not text[line_start:i].strip(), i, end))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end
            comments.append(Comment(line, i - line_start + 1, text[i + 2:end],
                                    not text[line_start:i].strip(), i, min(end + 2, n)))
            newlines = text.count("\n", i, end)
            if newlines:
                line, line_start = line + newlines, text.rfind("\n", i, end) + 1
            i = end + 2
        else:
            i += 1
    return comments


def _skip_literal(text: str, start: int) -> int:
    """Index just past the string or character literal opening at `start` (it ends at the line)."""
    quote, i = text[start], start + 1
    while i < len(text) and text[i] not in (quote, "\n"):
        i += 2 if text[i] == "\\" else 1
    return i + 1 if i < len(text) and text[i] == quote else i


def parse_suppressions(text: str) -> list:
    """The suppressions written in a source file, with the lines each one covers."""
    if "kernelscope:" not in text:   # the common case, and the fast one
        return []
    lines = text.splitlines()
    comments = find_comments(text)
    code_lines = _lines_with_code(text, comments)
    found, open_regions = [], []
    for comment in comments:
        for match in _DIRECTIVE.finditer(comment.text):
            kind, listed = match.group(1), match.group(2)
            codes = None if listed is None else tuple(
                c.strip().upper() for c in re.split(r"[,\s]+", listed) if c.strip())
            if codes is not None and "ALL" in codes:
                codes = None
            if kind == "ignore":
                target = comment.line
                if comment.own_line:
                    target = next((n for n in range(comment.line + 1, len(lines) + 1) if n in code_lines),
                                  comment.line)
                found.append(Suppression(kind, comment.line, comment.column, codes, target, target))
            elif kind == "ignore-file":
                found.append(Suppression(kind, comment.line, comment.column, codes, 1, max(len(lines), 1)))
            elif kind == "disable":
                region = Suppression(kind, comment.line, comment.column, codes, comment.line, max(len(lines), 1))
                found.append(region)
                open_regions.append(region)
            else:  # enable: closes the regions it names (all open ones when it names none)
                for region in list(open_regions):
                    if codes is None or region.codes is None or set(region.codes) <= set(codes):
                        region.last = comment.line
                        open_regions.remove(region)
    return found


def _lines_with_code(text: str, comments) -> set:
    """Line numbers holding something other than whitespace and comments."""
    pieces, position = [], 0
    for comment in comments:
        # Keep the comment's newlines so that line numbers stay put; drop everything else.
        pieces += [text[position:comment.start], "\n" * text.count("\n", comment.start, comment.end)]
        position = comment.end
    pieces.append(text[position:])
    return {n for n, content in enumerate("".join(pieces).splitlines(), start=1) if content.strip()}


def apply_suppressions(diagnostics, suppressions, path: str) -> tuple:
    """Split findings into (kept, suppressed count) and report unused suppressions as KS903
    findings (returned in `kept`). KS903 findings themselves cannot be suppressed inline."""
    kept, suppressed = [], 0
    for diagnostic in diagnostics:
        covering = [s for s in suppressions if diagnostic.rule != UNUSED_CODE and s.covers(diagnostic)]
        for suppression in covering:
            suppression.mark_used(diagnostic)
        if covering:
            suppressed += 1
        else:
            kept.append(diagnostic)
    kept.extend(unused_suppressions(suppressions, path))
    return kept, suppressed


def unused_suppressions(suppressions, path: str) -> list:
    severity = rules.severity_of(UNUSED_CODE)
    findings = []
    for s in suppressions:
        def report(message):
            findings.append(Diagnostic(UNUSED_CODE, severity, path, s.line, s.column, message))
        if s.codes is None:
            if not s.used:
                report(f"'{s.kind}' suppression suppresses nothing")
            continue
        for code in s.codes:
            if not rules.matching(code):
                report(f"'{s.kind}' suppression names unknown rule code {code}")
            elif code not in s.used:
                report(f"'{s.kind}' suppression of {code} suppresses nothing")
    return findings
