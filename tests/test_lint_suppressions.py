"""Inline suppressions: line, line-above, region and file forms, and KS903 for unused ones."""

import textwrap

from kernelscope.lint.config import Settings
from kernelscope.lint.engine import check_text
from kernelscope.lint.suppressions import find_comments, parse_suppressions
from kernelscope.model import Diagnostic


def finding(code, line, severity="warning"):
    return Diagnostic(code, severity, "k.cu", line, 5, f"{code} here")


def lint(source, diagnostics, settings=Settings()):
    outcome = check_text(textwrap.dedent(source), "k.cu", settings, diagnostics)
    return [(f.diagnostic.rule, f.diagnostic.line) for f in outcome.findings], outcome.suppressed


def test_a_trailing_comment_suppresses_its_own_line_only():
    source = """\
        a[i * n] = 0;   // kernelscope: ignore[KS101]
        b[i * n] = 0;
    """
    assert lint(source, [finding("KS101", 1), finding("KS101", 2)]) == ([("KS101", 2)], 1)


def test_a_comment_on_its_own_line_suppresses_the_next_line_of_code():
    source = """\
        // kernelscope: ignore[KS101]
        // the access is strided on purpose: it reads one column

        a[i * n] = 0;
    """
    assert lint(source, [finding("KS101", 4)]) == ([], 1)


def test_a_suppression_only_covers_the_codes_it_names():
    source = "x = s[t];  // kernelscope: ignore[KS103]\n"
    findings, _ = lint(source, [finding("KS202", 1, "error"), finding("KS103", 1)])
    assert findings == [("KS202", 1)]


def test_several_codes_and_bare_ignore():
    source = """\
        x = 1;  // kernelscope: ignore[KS101, KS102]
        y = 2;  // kernelscope: ignore
    """
    diagnostics = [finding("KS101", 1), finding("KS102", 1), finding("KS201", 2), finding("KS402", 2)]
    assert lint(source, diagnostics) == ([], 4)


def test_disable_and_enable_bracket_a_region():
    source = """\
        // kernelscope: disable[KS2]
        s[t] = v;
        w = s[t + 1];
        /* kernelscope: enable[KS2] */
        z = s[t + 2];
    """
    diagnostics = [finding("KS202", 2), finding("KS202", 3), finding("KS202", 5)]
    assert lint(source, diagnostics) == ([("KS202", 5)], 2)


def test_ignore_file_covers_every_line_wherever_it_is_written():
    source = "a;\nb;\nc;\n// kernelscope: ignore-file[KS4]\n"
    assert lint(source, [finding("KS402", 1), finding("KS401", 3)]) == ([], 2)


def test_unused_suppressions_are_reported_as_ks903_at_the_comment():
    source = """\
        a[i] = 0;   // kernelscope: ignore[KS101]
        // kernelscope: ignore[KS202, KS999]
        b[i] = 0;
    """
    findings, _ = lint(source, [finding("KS202", 3, "error")])
    assert findings == [("KS903", 1), ("KS903", 2)]


def test_unused_check_does_not_depend_on_rule_selection():
    # The finding exists even though KS101 is not selected, so the suppression is in use.
    source = "a[i * n] = 0;   // kernelscope: ignore[KS101]\n"
    assert lint(source, [finding("KS101", 1)], Settings(select=("KS2", "KS9"))) == ([], 1)


def test_ks903_can_be_turned_off_by_configuration():
    source = "a[i] = 0;   // kernelscope: ignore[KS101]\n"
    assert lint(source, [], Settings(ignore=("KS903",))) == ([], 0)


def test_comment_markers_inside_string_literals_are_not_comments():
    source = 'printf("// kernelscope: ignore[KS101]");  /* real */ // also real\n'
    assert [c.text for c in find_comments(source)] == [" real ", " also real"]
    assert parse_suppressions(source) == []


def test_block_comments_spanning_lines_keep_line_numbers_right():
    source = "/* one\n two */ // kernelscope: ignore[KS101]\nx;\n"
    (suppression,) = parse_suppressions(source)
    assert (suppression.line, suppression.first) == (2, 2)


def test_all_in_brackets_covers_every_code():
    assert lint("x;  // kernelscope: ignore[ALL]\n", [finding("KS101", 1), finding("KS202", 1)]) == ([], 2)


def test_skipping_disabled_checks_keeps_suppressions_of_disabled_rules_in_use():
    # lint skips the checks of rules it does not report, but not in a file with suppressions:
    # the KS101 finding must still exist to use the comment, or KS903 would call it unused
    from kernelscope.lint.engine import lint_text

    source = textwrap.dedent("""\
        __global__ void k(float* a, int n) {
            a[threadIdx.x * 32] = 0.0f;   // kernelscope: ignore[KS101]
        }
    """)
    settings = Settings(select=("KS1", "KS9"), ignore=("KS101",), registers="estimate")
    outcome = lint_text(source, "k.cu", settings)
    assert [f.diagnostic.rule for f in outcome.findings] == [] and outcome.suppressed == 1
    unsuppressed = source.replace("   // kernelscope: ignore[KS101]", "")
    assert [f.diagnostic.rule for f in lint_text(unsuppressed, "k.cu", settings).findings] == []
    assert [f.diagnostic.rule for f in lint_text(unsuppressed, "k.cu", Settings(select=("KS1", "KS9"), registers="estimate")).findings] == ["KS101"]
