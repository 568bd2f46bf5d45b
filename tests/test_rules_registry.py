"""The rule registry: codes, names and default severities as published, each rule documented and\nchecked in one place."""

from pathlib import Path
from types import SimpleNamespace

import pytest

from kernelscope import rules

ROOT = Path(__file__).resolve().parent.parent
CODES = [rule.code for rule in rules.all_rules()]


def test_codes_names_and_severities_are_those_the_docs_table_publishes():
    """The table in docs/lint.md is generated from the registry (`python -m kernelscope.rules
    docs/lint.md`) and committed: a changed code, name or default severity shows in its diff, and
    this test fails until it is regenerated."""
    page = (ROOT / "docs" / "lint.md").read_text()
    assert rules.with_rules_table(page) == page
    assert len({r.name for r in rules.all_rules()}) == len(CODES)


def test_all_rules_are_ordered_by_code():
    codes = [r.code for r in rules.all_rules()]
    assert codes == sorted(codes)


@pytest.mark.parametrize("code", CODES)
def test_every_rule_documents_all_four_sections_with_an_example(code):
    rule = rules.get(code)
    for section in rules.SECTIONS:
        assert len(rule.sections[section]) > 20, (code, section)
    assert "```" in rule.sections["Example"]
    assert rule.summary().endswith(".")


def test_get_accepts_codes_in_any_case_and_names():
    assert rules.get("ks201") is rules.get("KS201") is rules.get("divergent-barrier")


def test_get_rejects_unknown_codes():
    with pytest.raises(KeyError):
        rules.get("KS999")


def test_severity_of_is_the_rules_default():
    assert rules.severity_of("KS202") == "error"
    assert rules.severity_of("KS402") == "info"


def test_matching_selects_families_and_all():
    assert [r.code for r in rules.matching("KS3")] == ["KS301", "KS302", "KS303"]
    assert len(rules.matching("ALL")) == len(CODES)
    assert rules.matching("KS5") == ()


def test_a_rule_without_its_documentation_sections_cannot_be_declared():
    with pytest.raises(TypeError, match="lacks section"):
        class Undocumented(rules.Rule):
            """## What it does
            Something."""
            code, name, severity = "KS199", "undocumented", "info"


def test_a_summary_does_not_stop_at_an_ellipsis():
    summary = rules.get("KS403").summary()
    assert "..." in summary and summary.endswith(".") and not summary.endswith("...")


def test_every_rule_but_the_lint_engines_own_has_its_check_in_the_registry():
    assert [r.code for r in rules.all_rules() if not r.has_check] == ["KS903"]


def test_disabled_rules_are_not_checked(monkeypatch):
    def must_not_run(facts):
        raise AssertionError("the check of a disabled rule ran")

    monkeypatch.setattr(rules.get("KS101"), "check", must_not_run)
    facts = SimpleNamespace(memory=SimpleNamespace(accesses=[], branches=[]), sync=None, occupancy=None,
                            intensity=None, resources=None, rejected_launches=[], path="k.cu",
                            kernel=SimpleNamespace(name="k", line=1, column=1, params=[], accesses=[],
                                                   dynamic_local_accesses=[]))
    assert rules.check_kernel(facts, enabled=lambda code: code != "KS101") == []
    with pytest.raises(AssertionError, match="disabled rule ran"):
        rules.check_kernel(facts)


def test_a_check_reports_at_the_rules_default_severity():
    facts = SimpleNamespace(path="k.cu", rejected_launches=[SimpleNamespace(line=9, column=5, threads=2048, limit=1024)],
                            occupancy=None, kernel=SimpleNamespace(name="k", line=1, column=1))
    [found] = rules.get("KS303").check(facts)
    assert (found.rule, found.severity, found.line, found.column) == ("KS303", "error", 9, 5)
    assert "2048 threads" in found.message
