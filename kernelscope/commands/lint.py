"""`kernelscope lint` and `kernelscope rules`: thin click wrappers over kernelscope.lint and
kernelscope.rules. Exit status of lint: 0 clean, 1 findings at or above the failing severity,
2 usage or input error."""

from __future__ import annotations

import json
import sys

import click

from kernelscope import rules as registry
from kernelscope.commands._common import (TERMINAL, echo, exits_2_on_error, fail, parse_bindings, parse_block,
                                         parse_types)
from kernelscope.model import SEVERITIES

FORMATS = ("text", "json", "sarif", "github")


def _codes(values) -> tuple | None:
    """Repeated and comma-separated code lists, or None when the option was not given."""
    if not values:
        return None
    return tuple(code.strip() for value in values for code in value.split(",") if code.strip())


def _render(fmt: str, report) -> str:
    if fmt == "json":
        from kernelscope.report.lint_json import render_json
        return render_json(report)
    if fmt == "sarif":
        from kernelscope.report.sarif import render_sarif
        return render_sarif(report)
    if fmt == "github":
        from kernelscope.report.github import render_github
        return render_github(report)
    from kernelscope.report.lint_text import render_text
    return render_text(report)


@click.command(name="lint")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text: path:line:col: severity: CODE message; sarif: SARIF 2.1.0; github: workflow annotations.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write the report to this file instead of standard output.")
@click.option("--select", multiple=True, metavar="CODES",
              help="Only these codes or prefixes (KS1, KS201, ALL); replaces the configured list.")
@click.option("--ignore", multiple=True, metavar="CODES",
              help="Skip these codes or prefixes; replaces the configured list.")
@click.option("--severity", "severities", multiple=True, metavar="CODE=LEVEL",
              help="Report a code or prefix at another level (info, warning, error).")
@click.option("--fail-on", type=click.Choice(SEVERITIES), default=None,
              help="Exit 1 when a finding is at or above this level [default: error].")
@click.option("--arch", default=None, help="GPU architecture to assume, e.g. sm_90 [default: sm_90].")
@click.option("--block", default=None, help="Block shape where no launch gives one: 256, 16x16, 8x8x4.")
@click.option("--grid", default=None, help="Grid shape where no launch gives one (same syntax as --block).")
@click.option("--arg", "args", multiple=True, metavar="NAME=VALUE", help="Bind a kernel's integer parameter.")
@click.option("--show-info", is_flag=True, default=None,
              help="Also report info findings (advice such as redundant barriers); hidden by default.")
@click.option("--registers", type=click.Choice(("estimate", "ptxas", "auto")), default=None,
              help="Registers per thread: auto = nvcc -Xptxas -v when nvcc is on PATH, else an estimate "
                   "[default: auto].")
@click.option("-D", "--define", "defines", multiple=True, metavar="NAME[=VALUE]",
              help="Preprocessor definition, as the compiler is given it.")
@click.option("--type", "types", multiple=True, metavar="T=TYPE",
              help="Bind a template type parameter of the kernels (T=float); else the launches decide, or float.")
@click.option("--include", multiple=True, metavar="GLOB", help="Files to lint inside directories.")
@click.option("--exclude", multiple=True, metavar="GLOB",
              help="Files and directories to skip, besides the configured ones.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False),
              help="Use this configuration file instead of searching for one.")
@click.option("--baseline", type=click.Path(dir_okay=False),
              help="Report only findings not recorded in this baseline file.")
@click.option("--write-baseline", type=click.Path(dir_okay=False),
              help="Record all current findings in this file and exit 0.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes [default: one per CPU].")
@exits_2_on_error
def lint(paths, fmt, output, select, ignore, severities, fail_on, arch, block, grid, args, show_info, registers,
         defines, types, include, exclude, config_file, baseline, write_baseline, exit_zero, jobs):
    """Lint CUDA files and directories for hazards.

    Configuration comes from [tool.kernelscope] in pyproject.toml or [kernelscope] in setup.cfg,
    found by walking up from each file; options given here take precedence.
    """
    from kernelscope.lint import baseline as baselines
    from kernelscope.lint import config
    from kernelscope.lint.engine import run_lint
    from kernelscope.report.lint_text import render_summary

    where = "command line"
    overrides = config.Overrides(
        select=config.check_prefixes(_codes(select), where) if select else None,
        ignore=config.check_prefixes(_codes(ignore), where) if ignore else None,
        severity=tuple(_severity_override(item) for item in severities),
        include=tuple(include) or None,
        extend_exclude=tuple(exclude),
        arch=arch,
        block=parse_block(block),
        grid=parse_block(grid, limit=None),
        bindings=tuple(parse_bindings(args).items()) or None,
        show_info=show_info or None,
        defines=tuple(config.parse_define(item, "-D") for item in defines) or None,
        registers=registers,
        types=tuple(parse_types(types).items()) or None,
        fail_on=fail_on,
    )
    resolver = config.SettingsResolver(overrides, config_file, defaults=config.CLI_DEFAULTS)
    # A baseline being written records everything, not only what an older baseline lacks.
    known = baselines.Baseline(baseline) if baseline and not write_baseline else None
    report = run_lint(paths, resolver, jobs=jobs, baseline=known, progress=TERMINAL.progress("lint"))
    for path in report.skipped:
        TERMINAL.note(f"kernelscope: skipped {path}: not C, C++ or CUDA source")
    if not report.files:
        if report.skipped and len(report.skipped) == len(paths):
            # only files such as README.md were named (a changed-files list): nothing to check
            TERMINAL.note("kernelscope: no CUDA files among the files named; nothing to lint")
            sys.exit(0)
        # A CI step that lints nothing is almost always pointed at the wrong place.
        fail(f"no CUDA files to lint in {', '.join(paths)} (see --include)")

    for _, message in report.errors:
        echo(f"kernelscope: error: {message}", err=True)
    if write_baseline:
        count = baselines.write_baseline(write_baseline, report.findings)
        echo(f"kernelscope: recorded {count} finding{'s' if count != 1 else ''} in {write_baseline}", err=True)
        sys.exit(2 if report.errors else 0)

    rendered = _render(fmt, report)
    if output:
        try:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(rendered)
        except OSError as exc:
            fail(f"cannot write {output}: {exc.strerror or exc}")
    else:
        echo(rendered, nl=False)
    if fmt == "text" and not TERMINAL.quiet:
        echo(render_summary(report), err=True)
    if report.errors:
        sys.exit(2)
    sys.exit(1 if report.has_failures() and not exit_zero else 0)


def _severity_override(item: str) -> tuple:
    from kernelscope.lint import config

    code, sep, level = item.partition("=")
    if not sep:
        raise click.BadParameter(f"--severity expects CODE=LEVEL, got {item!r}")
    return config.check_prefixes([code], "--severity")[0], config.check_level(level, "--severity")


@click.command(name="rules")
@click.argument("code", required=False)
@click.option("--format", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True,
              help="text for reading, json for tools.")
@exits_2_on_error
def rules(code, fmt):
    """List the lint rules, or explain one (by code, e.g. KS101, or by name).

    A prefix such as KS2 lists one family.
    """
    if code is None:
        chosen = registry.all_rules()
    else:
        try:
            chosen = (registry.get(code),)
        except KeyError:
            chosen = registry.matching(code)
            if not chosen:
                fail(f"no rule is called {code!r} (see `kernelscope rules`)")
    if fmt == "json":
        echo(json.dumps([_rule_json(rule) for rule in chosen], indent=2))
    elif code is not None and len(chosen) == 1:
        echo(_explain(chosen[0]))
    else:
        echo(_listing(chosen))


def _rule_json(rule) -> dict:
    return {"code": rule.code, "name": rule.name, "severity": rule.severity,
            "family": registry.FAMILIES[rule.family()][0], "summary": rule.summary(), "doc": rule.doc}


def _explain(rule) -> str:
    family = registry.FAMILIES[rule.family()][0]
    return f"# {rule.code} {rule.name}\n\nDefault severity: {rule.severity}. Family: {family}.\n\n{rule.doc}"


def _listing(chosen) -> str:
    lines, family = [], None
    for rule in chosen:
        if rule.family() != family:
            family = rule.family()
            lines.append(("\n" if lines else "") + f"{family}xx {registry.FAMILIES[family][0]}")
        lines.append(f"  {rule.code}  {rule.severity:<7}  {rule.name:<26}  {rule.summary()}")
    return "\n".join(lines)
