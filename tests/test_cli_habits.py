"""Habits people expect of a command-line tool: -V, -q/-v, help on every option, one spelling and
default for the shared analysis options, configuration honoured by analyze, and output problems
found before the work instead of after it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kernelscope import __version__
from kernelscope.cli import cli, hoist_global_options

ROOT = Path(__file__).parent.parent
SAXPY = ROOT / "examples" / "saxpy.cu"
NO_LAUNCH = "__global__ void k(float* x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }\n"


def invoke(*args, **kwargs):
    return CliRunner().invoke(cli, [str(a) for a in args], **kwargs)


def every_command():
    ctx = click.Context(cli)

    def walk(command, path):
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                yield from walk(command.get_command(ctx, name), path + [name])
        else:
            yield " ".join(path), command

    yield from walk(cli, [])


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version_flags_print_the_version(flag):
    result = invoke(flag)
    assert result.exit_code == 0 and __version__ in result.output


def test_every_option_of_every_command_has_help_text():
    missing = [f"{name} {'/'.join(p.opts)}" for name, command in every_command() for p in command.params
               if isinstance(p, click.Option) and not p.hidden and not (p.help or "").strip()]
    assert not missing


def test_the_shared_analysis_options_are_spelled_and_defaulted_alike():
    commands = dict(every_command())
    seen = {}
    for name in ("analyze", "features", "roofline"):
        options = {opt: p for p in commands[name].params if isinstance(p, click.Option) for opt in p.opts}
        for spelling in ("--arch", "--block", "--grid", "--arg", "-D", "--define", "--registers"):
            assert spelling in options, (name, spelling)
        registers = options["--registers"]
        seen.setdefault("registers help", registers.help)
        assert registers.help == seen["registers help"], name
    lint = {opt: p for p in commands["lint"].params if isinstance(p, click.Option) for opt in p.opts}
    assert "-D" in lint and "--define" in lint


def test_the_api_the_linter_and_the_cli_share_one_register_default():
    from kernelscope.analyze import Options
    from kernelscope.commands._common import DEFAULT_REGISTERS
    from kernelscope.lint.config import Settings

    assert Options().registers == Settings().registers == DEFAULT_REGISTERS


def test_global_flags_may_follow_the_command():
    assert hoist_global_options(["analyze", "-q", "x.cu", "--color", "never"]) == \
        ["-q", "--color", "never", "analyze", "x.cu"]
    assert hoist_global_options(["run", "--", "-q"]) == ["run", "--", "-q"]


def test_quiet_silences_status_lines_and_verbose_adds_them(tmp_path):
    output = tmp_path / "r.html"
    normal = invoke("analyze", "--registers", "estimate", "--format", "html", "-o", output, SAXPY)
    quiet = invoke("-q", "analyze", "--registers", "estimate", "--format", "html", "-o", output, SAXPY)
    verbose = invoke("analyze", "-v", "--registers", "estimate", "--format", "html", "-o", output, SAXPY)
    assert normal.exit_code == quiet.exit_code == verbose.exit_code == 0
    assert "written to" in normal.stderr and quiet.stderr == ""
    assert "analysed" in verbose.stderr and "analysed" not in normal.stderr


def test_a_pyproject_that_is_not_utf8_is_one_line_and_status_2(tmp_path):
    (tmp_path / "pyproject.toml").write_bytes(b'[tool.kernelscope]\narch = "sm_90\xff"\n')
    source = tmp_path / "k.cu"
    source.write_text(NO_LAUNCH)
    result = invoke("analyze", source)
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert "cannot read" in line and "pyproject.toml" in line and "internal error" not in line


def test_analyze_honours_the_project_configuration_and_the_command_line_wins(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.kernelscope]\narch = "sm_80"\nblock = 128\n'
                                             'define = ["WIDE"]\nregisters = "estimate"\n')
    source = tmp_path / "k.cu"
    source.write_text("#ifdef WIDE\n" + NO_LAUNCH + "#endif\n")
    configured = json.loads(invoke("analyze", "--format", "json", source).output)
    (kernel,) = configured["files"][0]["kernels"]
    assert kernel["occupancy"]["arch"] == "sm_80" and kernel["block"] == [128, 1, 1]
    assert kernel["block_source"] == "option" and kernel["occupancy"]["registers_source"] == "estimate"
    overridden = json.loads(invoke("analyze", "--format", "json", "--arch", "sm_90", "--block", "64", source).output)
    (kernel,) = overridden["files"][0]["kernels"]
    assert kernel["occupancy"]["arch"] == "sm_90" and kernel["block"] == [64, 1, 1]


def test_features_refuses_an_unwritable_format_before_extracting(tmp_path, monkeypatch):
    import kernelscope.features as features

    def no_work(*args, **kwargs):
        raise AssertionError("extraction started before the output was checked")

    monkeypatch.setattr(features, "extract", no_work)
    unknown = invoke("features", SAXPY, "-o", tmp_path / "table.xlsx")
    assert unknown.exit_code == 2 and "unknown output format" in unknown.stderr
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pyarrow" else real_find_spec(name, *a))
    parquet = invoke("features", SAXPY, "-o", tmp_path / "table.parquet")
    assert parquet.exit_code == 2 and "pyarrow" in parquet.stderr
    assert len(parquet.stderr.strip().splitlines()) == 1


def test_roofline_refuses_an_unknown_chart_format_before_analysing(tmp_path):
    result = invoke("roofline", SAXPY, "-o", tmp_path / "chart.bmp")
    assert result.exit_code == 2 and ".png" in result.stderr


def test_features_extract_takes_a_single_path_as_one_path(tmp_path):
    from kernelscope.features import extract

    one = extract(str(SAXPY), registers="estimate")
    listed = extract([str(SAXPY)], registers="estimate")
    assert list(one["kernel"]) == list(listed["kernel"]) == ["saxpy", "saxpy_vec4"]
    assert list(extract(SAXPY, registers="estimate")["kernel"]) == ["saxpy", "saxpy_vec4"]  # a Path too


def test_quiet_lint_prints_findings_but_no_summary():
    normal = invoke("lint", "--registers", "estimate", ROOT / "examples" / "transpose.cu")
    quiet = invoke("lint", "-q", "--registers", "estimate", ROOT / "examples" / "transpose.cu")
    assert normal.exit_code == quiet.exit_code
    assert normal.stdout == quiet.stdout and "KS101" in quiet.stdout
    assert normal.stderr.strip() and not quiet.stderr.strip()


def test_lint_reports_progress_to_a_callback():
    from kernelscope.lint.config import Overrides, SettingsResolver
    from kernelscope.lint.engine import run_lint

    calls = []
    report = run_lint([str(ROOT / "examples")], SettingsResolver(Overrides(registers="estimate")), jobs=1,
                      progress=lambda done, total: calls.append((done, total)))
    total = len(report.files)
    assert total > 1 and calls == [(done, total) for done in range(1, total + 1)]
