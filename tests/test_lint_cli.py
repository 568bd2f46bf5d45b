"""`kernelscope lint` and `kernelscope rules` on the command line: formats and exit statuses."""

import json

import pytest
from click.testing import CliRunner

from kernelscope.cli import cli
from kernelscope.lint import engine

from test_lint_engine import marker_analyzer


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(engine, "analyze_file", marker_analyzer)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "warn.cu").write_text("x; // FINDING(KS101)\n")
    (tmp_path / "src" / "clean.cu").write_text("y;\n")
    return tmp_path


def run(*args):
    result = CliRunner().invoke(cli, ["lint", "-j", "1", *args])
    return result.exit_code, result.stdout, result.stderr


def test_warnings_alone_exit_0_by_default(project):
    code, out, err = run("src")
    assert code == 0
    assert out == "src/warn.cu:1:7: warning: KS101 marker KS101\n"
    assert "1 finding (1 warning) in 2 files" in err


def test_errors_exit_1_and_exit_zero_overrides(project):
    (project / "src" / "bad.cu").write_text("z; // FINDING(KS202)\n")
    assert run("src")[0] == 1
    assert run("src", "--exit-zero")[0] == 0


def test_fail_on_lowers_the_failing_severity(project):
    assert run("src", "--fail-on", "warning")[0] == 1


def test_severity_override_on_the_command_line_makes_a_warning_fail(project):
    assert run("src", "--severity", "KS101=error")[0] == 1


def test_configured_fail_on_is_overridden_by_the_flag(project):
    (project / "pyproject.toml").write_text('[tool.kernelscope]\nfail-on = "warning"\n')
    assert run("src")[0] == 1
    assert run("src", "--fail-on", "error")[0] == 0


def test_select_and_ignore_flags(project):
    (project / "src" / "more.cu").write_text("FINDING(KS202) FINDING(KS402)\n")
    assert [l.split()[2] for l in run("src", "--select", "KS1,KS4", "--show-info")[1].splitlines()] == ["KS402", "KS101"]
    assert [l.split()[2] for l in run("src", "--ignore", "KS2", "--ignore", "KS101", "--show-info")[1].splitlines()] == ["KS402"]


@pytest.mark.parametrize("args, message", [
    (["missing"], "missing: no such file or directory"),
    (["src", "--select", "KS7"], "'KS7' matches no rule"),
    (["src", "--severity", "KS101=fatal"], "severity must be one of"),
    (["src", "--baseline", "nope.json"], "does not exist"),
])
def test_usage_and_input_errors_exit_2_with_one_line(project, args, message):
    code, out, err = run(*args)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_bad_block_is_a_usage_error(project):
    assert run("src", "--block", "2000")[0] == 2


def test_unreadable_file_exits_2_after_reporting_the_rest(project):
    (project / "src" / "binary.cu").write_bytes(b"\x00\x00")
    code, out, err = run("src")
    assert code == 2
    assert "KS101" in out and "binary file" in err


def test_write_baseline_then_baseline_hides_old_findings(project):
    code, _, err = run("src", "--write-baseline", "baseline.json")
    assert code == 0 and "recorded 1 finding" in err
    (project / "src" / "new.cu").write_text("FINDING(KS202)\n")
    code, out, _ = run("src", "--baseline", "baseline.json")
    assert (code, out) == (1, "src/new.cu:1:1: error: KS202 marker KS202\n")


def test_sarif_and_json_go_to_the_output_file(project):
    assert run("src", "--format", "sarif", "-o", "out.sarif")[0] == 0
    assert json.loads((project / "out.sarif").read_text())["version"] == "2.1.0"
    code, out, _ = run("src", "--format", "json")
    assert json.loads(out)["files_checked"] == 2


def test_github_format(project):
    assert run("src", "--format", "github")[1].startswith("::warning file=src/warn.cu,line=1,col=7,")


def test_rules_lists_every_rule_and_explains_one():
    result = CliRunner().invoke(cli, ["rules"])
    assert result.exit_code == 0 and result.stdout.count("  KS") == 24
    result = CliRunner().invoke(cli, ["rules", "KS101"])
    assert result.exit_code == 0
    assert result.stdout.startswith("# KS101 uncoalesced-global-access")
    assert "## Use instead" in result.stdout
    result = CliRunner().invoke(cli, ["rules", "KS2", "--format", "json"])
    assert [r["code"] for r in json.loads(result.stdout)][:2] == ["KS201", "KS202"]


def test_rules_with_an_unknown_code_exits_2():
    result = CliRunner().invoke(cli, ["rules", "KS777"])
    assert result.exit_code == 2 and "no rule is called" in result.stderr


def test_a_directory_without_cuda_files_is_an_input_error(project):
    (project / "docs").mkdir()
    (project / "docs" / "readme.md").write_text("nothing to lint\n")
    code, _, err = run("docs")
    assert code == 2 and "no CUDA files to lint in docs" in err


def test_info_findings_are_hidden_unless_asked_for(project):
    (project / "src" / "advice.cu").write_text("FINDING(KS203)\n")
    code, out, err = run("src")
    assert code == 0 and "KS203" not in out
    assert "1 info finding not shown (--show-info)" in err
    assert "info: KS203" in run("src", "--show-info")[1]
    (project / "pyproject.toml").write_text('[tool.kernelscope]\nshow-info = true\n')
    assert "info: KS203" in run("src")[1]


def test_info_findings_show_when_they_fail_the_run(project):
    (project / "src" / "advice.cu").write_text("FINDING(KS203)\n")
    code, out, _ = run("src", "--fail-on", "info")
    assert code == 1 and "KS203" in out


def test_named_non_cuda_files_are_skipped(project):
    (project / "README.md").write_text("FINDING(KS202)\n")
    code, out, err = run("README.md", "src/warn.cu")
    assert code == 0 and "README.md" not in out and "KS101" in out
    assert "skipped README.md: not C, C++ or CUDA source" in err
    code, out, err = run("README.md")
    assert (code, out) == (0, "") and "nothing to lint" in err


def test_named_header_is_linted_even_outside_the_include_globs(project):
    (project / "src" / "tile.h").write_text("FINDING(KS202)\n")
    assert run("src/tile.h")[0] == 1


@pytest.mark.parametrize("args, message", [
    (["src", "--grid", "0"], "positive sizes"),
    (["src", "--arg", "n"], "--arg expects NAME=VALUE"),
    (["src", "--arg", "n=ten"], "value must be an integer"),
])
def test_bad_grid_or_arg_is_a_usage_error(project, args, message):
    code, _, err = run(*args)
    assert code == 2 and message in err and "Traceback" not in err


def test_grid_and_args_reach_the_analysis(project, monkeypatch):
    seen = []

    def recording(text, path, settings):
        seen.append((settings.grid, dict(settings.bindings)))
        return []

    monkeypatch.setattr(engine, "analyze_file", recording)
    assert run("src/clean.cu", "--grid", "4x2", "--arg", "n=1024", "--arg", "ld=0x40")[0] == 0
    assert seen == [((4, 2, 1), {"n": 1024, "ld": 64})]
