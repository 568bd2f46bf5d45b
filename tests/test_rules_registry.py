"""The rule registry holds exactly the agreed codes, names and default severities, each documented."""

import pytest

from kernelscope import rules

AGREED = {
    "KS101": ("uncoalesced-global-access", "warning"), "KS102": ("indirect-global-access", "info"),
    "KS103": ("shared-bank-conflict", "warning"), "KS104": ("local-memory-array", "info"),
    "KS111": ("divergent-branch-in-loop", "info"), "KS112": ("divergent-branch", "info"),
    "KS201": ("divergent-barrier", "error"), "KS202": ("shared-memory-race", "error"),
    "KS203": ("redundant-barrier", "info"), "KS204": ("atomic-contention", "warning"),
    "KS205": ("shuffle-mask-mismatch", "error"), "KS206": ("return-before-barrier", "error"),
    "KS207": ("missing-syncwarp", "warning"), "KS208": ("threadfence", "info"),
    "KS209": ("global-memory-race", "error"),
    "KS301": ("low-occupancy", "warning"), "KS302": ("register-spill", "warning"),
    "KS303": ("block-exceeds-limit", "error"),
    "KS401": ("low-arithmetic-intensity", "info"), "KS402": ("missing-restrict", "info"),
    "KS403": ("uncached-readonly", "info"),
    "KS901": ("syntax-error", "error"), "KS902": ("unsupported-construct", "info"),
    "KS903": ("unused-suppression", "warning"),
}


def test_registry_holds_exactly_the_agreed_codes_names_and_severities():
    assert {r.code: (r.name, r.severity) for r in rules.all_rules()} == AGREED


def test_all_rules_are_ordered_by_code():
    codes = [r.code for r in rules.all_rules()]
    assert codes == sorted(codes)


@pytest.mark.parametrize("code", sorted(AGREED))
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
    assert len(rules.matching("ALL")) == len(AGREED)
    assert rules.matching("KS5") == ()


def test_a_rule_without_its_documentation_sections_cannot_be_declared():
    with pytest.raises(TypeError, match="lacks section"):
        class Undocumented(rules.Rule):
            """## What it does
            Something."""
            code, name, severity = "KS199", "undocumented", "info"


def test_docs_page_mentions_every_rule():
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "lint.md").read_text()
    missing = [code for code in AGREED if code not in page]
    assert not missing


def test_docs_page_table_says_what_the_registry_says():
    """Each rule's row in docs/lint.md is its code, name, default severity and summary, word for
    word, so the page cannot tell a different story from `kernelscope rules`."""
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "lint.md").read_text()
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| (KS\d{3}) \|.*\|$", page, re.M)}
    assert set(rows) == {rule.code for rule in rules.all_rules()}
    for rule in rules.all_rules():
        assert rows[rule.code] == f"| {rule.code} | {rule.name} | {rule.severity} | {rule.summary()} |"


def test_a_summary_does_not_stop_at_an_ellipsis():
    summary = rules.get("KS403").summary()
    assert "..." in summary and summary.endswith(".") and not summary.endswith("...")
