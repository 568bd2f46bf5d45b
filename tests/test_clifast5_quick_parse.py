"""The quick parse of plain command lines (kernelscope/commands/_quick_parse.py) gives the values,
parameter sources and leftover arguments click's own parser gives, and leaves every other line,
errors included, to click: compared on `kernelscope [global options] analyze ...` lines."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

import kernelscope.commands._quick_parse as quick_module
from kernelscope.cli import cli
from kernelscope.commands import analyze as analyze_module

SOURCE = "__global__ void k(float* y) { y[threadIdx.x] = 1.0f; }\n"

# `{a}`, `{b}` stand for two CUDA files, `{cfg}` for a configuration file
PLAIN_LINES = [
    "analyze {a}",
    "analyze --format json --registers estimate {a}",
    "analyze {a} --format=json {b}",
    "analyze --format text --format json {a}",
    "analyze -o out.json --arch sm_80 --block 16x16 --grid 64 --arg N=4 --arg=M=8 -D X --define Y=2 "
    "--type T=float --dynamic-smem 128 --preprocess builtin --config {cfg} --explain {a} {b}",
    "analyze --explain --explain {a}",
    "analyze --arg N=-1 {a}",
    "analyze --output - {a}",
    "analyze --format= {a}",                 # click's Choice refuses the empty value
    "analyze --format JSON {a}",             # ... and the wrong case
    "analyze --dynamic-smem -1 {a}",
    "analyze --dynamic-smem many {a}",
    "analyze - {a}",
    "analyze missing.cu",
    "-q analyze {a}",
    "-v -v analyze {a}",
    "--verbose analyze {a}",
    "--color never analyze {a}",
    "--color=always analyze {a}",
    "--color=blue analyze {a}",
    "analyze -q {a} -v",                     # global options after the command are hoisted
]
# lines the quick parse must leave to click
OTHER_LINES = [
    "analyze",
    "analyze --help",
    "analyze -h {a}",
    "analyze --nope {a}",
    "analyze --form json {a}",               # no abbreviations
    "analyze --explain=yes {a}",
    "analyze -- {a}",
    "analyze {a} --format",                  # a missing value
    "analyze -Dx {a}",                       # a short option's attached value
    "analyze -D=x {a}",
    "analyze -ofile.json {a}",
    "-vv analyze {a}",                       # bundled short flags
    "--verbose=2 analyze {a}",
    "--version",
    "-V analyze {a}",
    "--nope analyze {a}",
]


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("a.cu", "b.cu"):
        (tmp_path / name).write_text(SOURCE)
    (tmp_path / "kernelscope.toml").write_text('arch = "sm_80"\n')
    return {"a": str(tmp_path / "a.cu"), "b": str(tmp_path / "b.cu"), "cfg": str(tmp_path / "kernelscope.toml")}


def without_quick_parse(monkeypatch):
    monkeypatch.setattr(quick_module, "quick_parse", lambda command, ctx, args: None)


def contexts(args: list[str]):
    """The group's and the subcommand's parsed state: values, their sources, leftover arguments."""
    root = cli.make_context("kernelscope", list(args))
    state = [_state(root)]
    protected = getattr(root, "_protected_args", None) or getattr(root, "protected_args", [])
    rest = [*protected, *root.args]
    name, command, rest = cli.resolve_command(root, rest)
    sub = command.make_context(name, rest, parent=root)
    state.append(_state(sub))
    return state


def _state(ctx: click.Context):
    params = dict(ctx.params)
    sources = {name: ctx.get_parameter_source(name) for name in params}
    return params, {n: type(v) for n, v in params.items()}, sources, list(ctx.args)


def invoke(args: list[str], monkeypatch):
    """Exit code and output of the line, with the analysis replaced by a record of its arguments."""
    seen = []

    def record(*arguments):
        seen.append(arguments)
        return 0

    monkeypatch.setattr(analyze_module, "_analyze_files", record)
    result = CliRunner().invoke(cli, args)
    return result.exit_code, result.output, seen


def line(template: str, files: dict) -> list[str]:
    return [word.format(**files) for word in template.split(" ")]


@pytest.mark.parametrize("template", PLAIN_LINES)
def test_plain_lines_parse_as_click_parses_them(template, files, monkeypatch):
    args = line(template, files)
    quick = invoke(args, monkeypatch)
    try:
        quick_contexts = contexts(args)
    except click.ClickException as exc:
        quick_contexts = exc.format_message()
    without_quick_parse(monkeypatch)
    general = invoke(args, monkeypatch)
    try:
        general_contexts = contexts(args)
    except click.ClickException as exc:
        general_contexts = exc.format_message()
    assert quick == general
    assert quick_contexts == general_contexts


@pytest.mark.parametrize("template", OTHER_LINES)
def test_other_lines_are_left_to_click(template, files, monkeypatch):
    args = line(template, files)
    quick = invoke(args, monkeypatch)
    without_quick_parse(monkeypatch)
    assert quick == invoke(args, monkeypatch)


def test_the_quick_parse_reads_the_plain_lines(files, monkeypatch):
    # a quick parse that always gave up would pass the comparisons above
    taken = []
    real = quick_module.quick_parse

    def spy(command, ctx, args):
        parsed = real(command, ctx, args)
        taken.append((command.name, parsed is not None))
        return parsed

    monkeypatch.setattr(quick_module, "quick_parse", spy)
    invoke(line(PLAIN_LINES[4], files), monkeypatch)
    invoke(line("--color never analyze {a}", files), monkeypatch)
    assert taken == [("cli", True), ("analyze", True)] * 2
    taken.clear()
    invoke(line("analyze -Dx {a}", files), monkeypatch)
    assert taken == [("cli", True), ("analyze", False)]


def test_an_unusual_parameter_makes_the_command_click_parsed():
    @click.command(cls=quick_module.QuickParsing)
    @click.option("--name", envvar="NAME")
    def command(name):
        pass

    ctx = click.Context(command)
    assert quick_module.quick_parse(command, ctx, ["--name", "x"]) is None


def test_the_table_follows_a_changed_parameter_list():
    @click.command(cls=quick_module.QuickParsing)
    @click.option("--name")
    def command(name, extra=None):
        pass

    assert quick_module.quick_parse(command, click.Context(command), ["--extra", "x"]) is None
    command.params.append(click.Option(["--extra"]))
    values = quick_module.quick_parse(command, click.Context(command), ["--extra", "x"])[0]
    assert values == {"name": None, "extra": "x"}


class Shouting(click.Choice):
    def normalize_choice(self, choice, ctx):
        return str(choice).upper()


@click.command(cls=quick_module.QuickParsing)
@click.option("--mode", type=click.Choice(["fast", "slow"]), default="fast")
@click.option("--loose", type=click.Choice(["Alpha", "beta"], case_sensitive=False), default="BETA")
@click.option("--loud", type=Shouting(["up", "down"]), default="up")
@click.option("--level", type=click.Choice(["1", "2"]), default=None)
@click.option("--size", type=click.IntRange(0, 10), default=3)
@click.option("--tag", multiple=True)
@click.option("-n", "--count", count=True)
@click.option("--show", is_flag=True)
@click.argument("names", nargs=-1)
def sample(**values):
    pass


@click.command(cls=quick_module.QuickParsing)
@click.option("--show", is_flag=True, default=None)
@click.option("--many", count=True, default=None)
@click.argument("names", nargs=-1)
def undecided(**values):
    pass


SAMPLE_LINES = ["x", "--mode slow x", "--mode SLOW x", "--loose ALPHA x", "--loose=beta x", "--loud down x",
                "--loud DOWN x", "--level 2 x", "--level 3 x", "--size 10 x", "--size 11 x", "--tag a --tag=b x y",
                "-n -n x", "--count x -n", "--mode= x", "--show x", "x --show --show"]


def parsed(command, args, quick: bool):
    ctx = click.Context(command, info_name="sample")
    parse = quick_module.QuickParsing.parse_args if quick else click.Command.parse_args
    try:
        parse(command, ctx, list(args))
    except click.ClickException as exc:
        return exc.format_message()
    return ctx.params, {name: ctx.get_parameter_source(name) for name in ctx.params}, ctx.args


@pytest.mark.parametrize("words", SAMPLE_LINES)
def test_choices_and_defaults_convert_as_click_converts_them(words):
    # case-insensitive Choices and Choice subclasses take click's conversion, not the membership test
    args = words.split(" ")
    assert parsed(sample, args, quick=True) == parsed(sample, args, quick=False)
    assert quick_module.quick_parse(sample, click.Context(sample), ["x"])[0]["loose"] == "beta"


@pytest.mark.parametrize("words", ["x", "--show x", "--many --many x"])
def test_a_flag_whose_default_is_none_is_left_to_click(words):
    args = words.split(" ")
    assert parsed(undecided, args, quick=True) == parsed(undecided, args, quick=False)
    assert quick_module.quick_parse(undecided, click.Context(undecided), args) is None
