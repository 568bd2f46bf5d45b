"""Command-line entry point. Wiring only: every command lives in `kernelscope.commands.<name>`
and is imported when it runs, so that `kernelscope analyze` does not pay for pandas, cupy or torch."""

from __future__ import annotations

import gc
import importlib
import os
import sys

from kernelscope import __version__, regex_cache

# Before click, numpy and the front end compile their regular expressions at import (regex_cache).
regex_cache.install()

import click  # noqa: E402

from kernelscope.commands._quick_parse import QuickParsing  # noqa: E402

# command name -> (module, attribute, one-line help shown by `kernelscope --help`)
COMMANDS = {
    "analyze": ("kernelscope.commands.analyze", "analyze", "Report per-kernel static analysis of CUDA files."),
    "lint": ("kernelscope.commands.lint", "lint", "Lint CUDA sources for hazards (CI friendly)."),
    "rules": ("kernelscope.commands.lint", "rules", "List lint rules or explain one."),
    "features": ("kernelscope.commands.features", "features", "Extract a feature table for reward models."),
    "roofline": ("kernelscope.commands.roofline", "roofline", "Draw a roofline chart of kernels."),
    "run": ("kernelscope.commands.run", "run", "Compile, verify and time a candidate on the GPU."),
    "profile": ("kernelscope.commands.run", "profile", "Profile a problem's launches with Nsight Compute."),
    "rank": ("kernelscope.commands.rank", "rank", "Train, evaluate or apply the pairwise ranker."),
    "train": ("kernelscope.commands.train", "train", "Run the bundled GRPO trainer."),
    "eval": ("kernelscope.commands.eval", "eval_command", "Score a model's completions: correct rate, fast_p, speedups."),
    "serve": ("kernelscope.commands.serve", "serve", "Serve rewards over HTTP (OpenRLHF protocol)."),
}


GLOBAL_FLAGS = frozenset({"-q", "--quiet", "-v", "-vv", "-vvv", "--verbose"})


def hoist_global_options(args: list[str]) -> list[str]:
    """`kernelscope analyze -q x.cu` means `kernelscope -q analyze x.cu`: people put -q/-v/--color
    after the command as often as before it. Nothing after `--` moves."""
    front, rest = [], []
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            rest.extend(args[index:])
            break
        if arg in GLOBAL_FLAGS or arg.startswith("--color="):
            front.append(arg)
        elif arg == "--color" and index + 1 < len(args):
            front.extend(args[index:index + 2])
            index += 1
        else:
            rest.append(arg)
        index += 1
    return front + rest


# QuickParsing after click.Group: the group's own options are read quickly, and Group.parse_args
# still hands the rest to the subcommand its own way (which differs between click versions)
class LazyGroup(click.Group, QuickParsing):
    def parse_args(self, ctx, args):
        return super().parse_args(ctx, hoist_global_options(list(args)))

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        module_name, attribute, short_help = COMMANDS[name]
        module = importlib.import_module(module_name)
        command = getattr(module, attribute)
        # the listing of `kernelscope --help` shows the table's one-liners, not docstrings cut mid-sentence
        command.short_help = command.short_help or short_help
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="kernelscope")
@click.option("-q", "--quiet", is_flag=True, help="Print only results and errors (no progress or summaries).")
@click.option("-v", "--verbose", count=True, help="Say more about what is being done (repeatable).")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colour terminal output; NO_COLOR in the environment means never unless 'always'.")
def cli(quiet, verbose, color):
    """kernelscope: static and dynamic analysis of CUDA kernels.

    Exit status: 0 success, 1 findings at the failing severity (analyze, lint), 2 usage or input error.
    """
    from kernelscope.commands._common import TERMINAL

    TERMINAL.verbosity = -1 if quiet else verbose
    TERMINAL.color_mode = color


# Commands that read files, analyse them and report, then end, and that do no linear algebra: `main`
# starts and ends their processes the cheap way (see _start_quick_process, _end_without_teardown).
QUICK_COMMANDS = frozenset({"analyze", "lint", "rules"})


def command_name(args) -> str | None:
    """The command a command line runs, wherever its global options stand; None when it names none."""
    hoisted = hoist_global_options(list(args))
    index = 0
    while index < len(hoisted):
        arg = hoisted[index]
        if arg == "--color":
            index += 2
        elif arg in GLOBAL_FLAGS or arg.startswith("--color="):
            index += 1
        else:
            return arg
    return None


def main(argv=None):
    """Console-script entry point (and `python -m kernelscope`): one command, then the process ends.
    Usage errors exit 2 (click's convention and our contract)."""
    quick = command_name(sys.argv[1:] if argv is None else argv) in QUICK_COMMANDS
    if quick:
        _start_quick_process()
    try:
        cli.main(args=argv, prog_name="kernelscope", standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("kernelscope: interrupted", err=True)
        sys.exit(130)
    except SystemExit as exit:
        if quick:
            _end_without_teardown(exit.code)
        raise


def _start_quick_process() -> None:
    """Before numpy is imported: its OpenBLAS would start a thread per CPU that these commands never
    use (a tenth of a one-kernel run's CPU time on two CPUs, more on bigger machines), unless the
    user chose a number. And the collector's young generation is made as large as during the
    analysis (gc_tuning): the imports' objects all stay alive, and the 50 young collections among
    them, with default settings, found nothing (3% of a one-kernel run's instructions). And glibc
    keeps the memory these processes free for reuse rather than giving it back and faulting it in
    again (malloc_tuning; before the imports, whose large blocks it also keeps)."""
    from kernelscope.gc_tuning import THRESHOLDS
    from kernelscope.malloc_tuning import keep_freed_memory

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    gc.set_threshold(*THRESHOLDS)
    keep_freed_memory()


def _end_without_teardown(code) -> None:
    """End the process as SystemExit(code) would, without tearing it down: freeing every module and
    object one by one at exit is work no one sees (8% of a one-kernel run's instructions). The
    standard streams are flushed first; the quick commands close what they open themselves, and
    register nothing to run at exit. A code Python would print (a message), or streams that cannot
    be flushed (a closed pipe), are left to Python's own exit."""
    if code is not None and not isinstance(code, int):
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code or 0)
