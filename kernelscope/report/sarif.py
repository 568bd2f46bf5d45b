"""Lint findings as SARIF 2.1.0, the format GitHub code scanning and many IDEs ingest.

Every rule of the registry goes into `tool.driver.rules` with its documentation, so a viewer can
explain a result without kernelscope installed. Results carry `partialFingerprints` that survive
unrelated edits (see `kernelscope.lint.findings.fingerprints`), which is how code scanning tells a
moved finding from a new one. Paths under the source root are written relative to `%SRCROOT%`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

from kernelscope import __version__, rules

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
FINGERPRINT_KEY = "kernelscope/v1"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def sarif_document(report, root: str | os.PathLike | None = None) -> dict:
    root = Path(os.path.abspath(root or os.getcwd()))
    descriptors = [rule_descriptor(rule) for rule in rules.all_rules()]
    index = {d["id"]: i for i, d in enumerate(descriptors)}
    results = [_result(finding, index, root) for finding in report.findings]
    notifications = [{"level": "error", "message": {"text": message},
                      "locations": [{"physicalLocation": {"artifactLocation": _artifact(path, root)}}]}
                     for path, message in report.errors]
    run = {
        "tool": {"driver": {"name": "kernelscope", "version": __version__, "rules": descriptors}},
        "originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri().rstrip("/") + "/"}},
        "invocations": [{"executionSuccessful": not notifications,
                         "toolExecutionNotifications": notifications}],
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def render_sarif(report, root: str | os.PathLike | None = None) -> str:
    return json.dumps(sarif_document(report, root), indent=2) + "\n"


def rule_descriptor(rule) -> dict:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary()},
        "fullDescription": {"text": " ".join(rule.sections["What it does"].split())},
        "help": {"text": rule.doc, "markdown": rule.doc},
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"tags": [rules.FAMILIES[rule.family()][0]]},
    }


def _result(finding, index: dict, root: Path) -> dict:
    d = finding.diagnostic
    region = {"startLine": d.line, "startColumn": max(d.column, 1)}
    if d.end_line and d.end_line > d.line:
        region["endLine"] = d.end_line
    location = {"physicalLocation": {"artifactLocation": _artifact(d.path, root), "region": region}}
    if d.kernel:
        location["logicalLocations"] = [{"name": d.kernel, "kind": "function"}]
    result = {
        "ruleId": d.rule,
        "level": _LEVEL[d.severity],
        "message": {"text": d.message},
        "locations": [location],
        "partialFingerprints": {FINGERPRINT_KEY: finding.fingerprint},
    }
    if d.rule in index:
        result["ruleIndex"] = index[d.rule]
    if d.related:
        result["relatedLocations"] = [
            {"id": n, "message": {"text": note},
             "physicalLocation": {"artifactLocation": _artifact(d.path, root),
                                  "region": {"startLine": line, "startColumn": max(column, 1)}}}
            for n, (line, column, note) in enumerate(d.related, start=1)]
    return result


def _artifact(path: str, root: Path) -> dict:
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(root)
    except ValueError:
        return {"uri": absolute.as_uri()}
    return {"uri": quote(relative.as_posix()), "uriBaseId": "%SRCROOT%"}
