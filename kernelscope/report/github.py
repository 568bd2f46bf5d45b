"""Lint findings as GitHub Actions workflow commands, which the runner turns into annotations on
the pull request: `::error file=...,line=...,col=...,title=...::message`."""

from __future__ import annotations

from kernelscope import rules

# GitHub has three annotation levels; "notice" is its name for informational ones.
_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def render_github(report) -> str:
    out = []
    for finding in report.findings:
        d = finding.diagnostic
        properties = {"file": d.path, "line": d.line, "col": d.column}
        if d.end_line and d.end_line > d.line:
            properties["endLine"] = d.end_line
        properties["title"] = _title(d.rule)
        fields = ",".join(f"{key}={_escape_property(str(value))}" for key, value in properties.items())
        out.append(f"::{_COMMAND[d.severity]} {fields}::{_escape_data(d.message)}\n")
    for path, message in report.errors:
        out.append(f"::error file={_escape_property(path)},title=kernelscope::{_escape_data(message)}\n")
    return "".join(out)


def _title(code: str) -> str:
    try:
        return f"{code} {rules.get(code).name}"
    except KeyError:
        return code


# The runner splits commands on newlines and properties on ',' and ':', so those are percent-encoded
# (and '%' itself first, so that encoded text decodes back exactly).
def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")
