"""Command-line entry point. Wiring only: every command lives in `kernelscope.commands.<name>`
and is imported when it runs, so that `kernelscope analyze` does not pay for pandas, cupy or torch."""

from __future__ import annotations

import importlib
import sys

import click

from kernelscope import __version__

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


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        module_name, attribute, short_help = COMMANDS[name]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if not exc.name or not exc.name.startswith("kernelscope"):
                raise
            return _unavailable(name, short_help)
        return getattr(module, attribute)


def _unavailable(name: str, short_help: str) -> click.Command:
    @click.command(name=name, short_help=short_help + " (not available in this build)",
                   context_settings={"ignore_unknown_options": True})
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def command(args):
        click.echo(f"kernelscope: error: '{name}' is not available in this build", err=True)
        sys.exit(2)

    return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kernelscope")
def cli():
    """kernelscope: static and dynamic analysis of CUDA kernels."""


def main(argv=None):
    """Console-script entry point. Usage errors exit 2 (click's convention and our contract)."""
    try:
        cli.main(args=argv, prog_name="kernelscope", standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("kernelscope: interrupted", err=True)
        sys.exit(130)
