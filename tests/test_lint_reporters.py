"""Reporters: text lines, JSON, GitHub annotations, and SARIF validated against the 2.1.0 schema.

The schema in fixtures/sarif-2.1.0.json is the OASIS SARIF 2.1.0 errata01 schema
(https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json),
vendored so that the test needs no network.
"""

import json
from pathlib import Path

import jsonschema
import pytest

from kernelscope import rules
from kernelscope.lint.config import SettingsResolver
from kernelscope.lint.engine import run_lint
from kernelscope.report.github import render_github
from kernelscope.report.lint_json import lint_document
from kernelscope.report.lint_text import render_summary, render_text
from kernelscope.report.sarif import FINGERPRINT_KEY, sarif_document

from test_lint_engine import marker_analyzer

SCHEMA = Path(__file__).parent / "fixtures" / "sarif-2.1.0.json"


@pytest.fixture
def report(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a b.cu").write_text("x; // FINDING(KS201)\n\n  y; // FINDING(KS101)\n")
    (tmp_path / "src" / "c.cu").write_text("z; // FINDING(KS402)\n")
    (tmp_path / "src" / "bad.cu").write_bytes(b"\x00")
    return run_lint(["src"], SettingsResolver(), analyzer=marker_analyzer, jobs=1)


def test_text_lines_are_path_line_column_severity_code_message(report):
    assert render_text(report).splitlines() == [
        "src/a b.cu:1:7: error: KS201 marker KS201",
        "src/a b.cu:3:9: warning: KS101 marker KS101",
        "src/c.cu:1:7: info: KS402 marker KS402",
    ]
    assert render_summary(report) == "kernelscope: 3 findings (1 error, 1 warning, 1 info) in 3 files (4 lines)"


def test_json_document_carries_rule_names_fingerprints_and_errors(report):
    document = json.loads(json.dumps(lint_document(report)))
    assert document["schema"] == "kernelscope.lint/1"
    assert document["summary"] == {"error": 1, "warning": 1, "info": 1}
    first = document["diagnostics"][0]
    assert (first["rule"], first["name"], first["severity"], first["line"]) == ("KS201", "divergent-barrier", "error", 1)
    assert len({d["fingerprint"] for d in document["diagnostics"]}) == 3
    assert [e["path"] for e in document["errors"]] == ["src/bad.cu"]


def test_github_annotations_use_the_workflow_command_syntax(report):
    lines = render_github(report).splitlines()
    assert lines[0] == "::error file=src/a b.cu,line=1,col=7,title=KS201 divergent-barrier::marker KS201"
    assert lines[1].startswith("::warning file=src/a b.cu,line=3,col=9,title=KS101 ")
    assert lines[2].startswith("::notice ")
    assert lines[3].startswith("::error file=src/bad.cu,title=kernelscope::")


def test_github_escapes_newlines_and_property_separators():
    from kernelscope.lint.findings import Finding, FileOutcome, LintReport
    from kernelscope.model import Diagnostic

    d = Diagnostic("KS101", "warning", "dir,x/a:b.cu", 2, 3, "100% strided\nsee docs")
    text = render_github(LintReport([FileOutcome(d.path, (Finding(d, "f", False),))]))
    assert text == "::warning file=dir%2Cx/a%3Ab.cu,line=2,col=3,title=KS101 uncoalesced-global-access::100%25 strided%0Asee docs\n"


def test_sarif_validates_against_the_sarif_2_1_0_schema(report):
    schema = json.loads(SCHEMA.read_text())
    document = json.loads(json.dumps(sarif_document(report)))
    jsonschema.validate(document, schema, cls=jsonschema.Draft4Validator)


def test_sarif_lists_every_rule_with_its_documentation(report):
    driver = sarif_document(report)["runs"][0]["tool"]["driver"]
    assert [r["id"] for r in driver["rules"]] == [r.code for r in rules.all_rules()]
    ks202 = next(r for r in driver["rules"] if r["id"] == "KS202")
    assert ks202["name"] == "shared-memory-race"
    assert ks202["defaultConfiguration"]["level"] == "error"
    assert "## Why is this bad?" in ks202["help"]["markdown"]
    assert ks202["properties"]["tags"] == ["synchronization"]


def test_sarif_results_point_at_files_under_srcroot(report, tmp_path):
    run = sarif_document(report)["runs"][0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"
    result = run["results"][1]
    assert result["ruleId"] == "KS101" and result["level"] == "warning"
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "KS101"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "src/a%20b.cu", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 3, "startColumn": 9}
    assert run["results"][2]["level"] == "note"
    assert run["invocations"][0]["executionSuccessful"] is False   # bad.cu could not be read


def test_sarif_fingerprints_survive_lines_inserted_above(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "k.cu"
    source.write_text("a; // FINDING(KS101)\nb; // FINDING(KS101)\n")

    def fingerprints():
        report = run_lint(["k.cu"], SettingsResolver(), analyzer=marker_analyzer, jobs=1)
        return [r["partialFingerprints"][FINGERPRINT_KEY] for r in sarif_document(report)["runs"][0]["results"]]

    before = fingerprints()
    source.write_text("// header\n\n" + source.read_text())
    assert fingerprints() == before
    assert len(set(before)) == 2


def test_sarif_from_the_real_analyses_validates_and_keeps_related_locations():
    # The seeded synchronization corpus: races and barrier bugs carry related locations.
    corpus = Path(__file__).parent / "kernels" / "sync"
    report = run_lint([corpus], SettingsResolver(), jobs=1)
    document = json.loads(json.dumps(sarif_document(report)))
    jsonschema.validate(document, json.loads(SCHEMA.read_text()), cls=jsonschema.Draft4Validator)
    results = document["runs"][0]["results"]
    assert {"KS201", "KS202", "KS206"} <= {r["ruleId"] for r in results}
    assert any("relatedLocations" in r for r in results)
