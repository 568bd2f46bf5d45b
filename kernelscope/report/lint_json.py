"""Lint findings as one JSON document (schema "kernelscope.lint/1")."""

from __future__ import annotations

import json

from kernelscope import rules

SCHEMA = "kernelscope.lint/1"


def lint_document(report) -> dict:
    findings = []
    for finding in report.findings:
        entry = finding.diagnostic.to_json()
        entry.update(name=_rule_name(entry["rule"]), end_line=finding.diagnostic.end_line,
                     fingerprint=finding.fingerprint, failing=finding.failing)
        findings.append(entry)
    return {
        "schema": SCHEMA,
        "files_checked": len(report.files),
        "lines_checked": report.lines,
        "suppressed": sum(o.suppressed for o in report.files),
        "summary": report.counts(),
        "errors": [{"path": path, "message": message} for path, message in report.errors],
        "diagnostics": findings,
    }


def render_json(report) -> str:
    return json.dumps(lint_document(report), indent=2) + "\n"


def _rule_name(code: str):
    try:
        return rules.get(code).name
    except KeyError:
        return None
