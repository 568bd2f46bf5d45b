"""Shared option parsing and error handling for the commands."""

from __future__ import annotations

import functools
import sys

import click

from kernelscope.errors import KernelscopeError


def fail(message: str) -> "NoReturn":  # noqa: F821
    echo(f"kernelscope: error: {message}", err=True)
    sys.exit(2)


def exits_2_on_error(function):
    """Turn project errors, and anything unexpected, into one line on stderr and exit status 2."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except KernelscopeError as exc:
            fail(str(exc))
        except RecursionError:
            fail("input nests too deeply to analyse")
        except MemoryError:
            fail("input too large to analyse")
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except ModuleNotFoundError as exc:
            # a broken or partial install (a dependency removed, another Python's kernelscope), not a
            # bug to report: say what is missing and for which interpreter
            fail(f"the Python package '{exc.name}' is missing for {sys.executable}: reinstall kernelscope "
                 "there, with the extra the command needs if it has one ('[gpu]', '[train]', '[ray]': README)")
        except Exception as exc:  # an internal bug must still not print a traceback at users
            fail(f"internal error: {type(exc).__name__}: {exc} (please report this)")

    return wrapper


def parse_block(text: str | None, limit: int | None = 1024) -> tuple[int, int, int] | None:
    """'256' -> (256,1,1); '16x16' -> (16,16,1); '8x8x4' -> (8,8,4). `limit` caps the product."""
    if text is None:
        return None
    parts = text.lower().replace(",", "x").split("x")
    try:
        dims = [int(p) for p in parts]
    except ValueError:
        raise click.BadParameter(f"block shape must look like 256, 16x16 or 8x8x4, got {text!r}")
    if not 1 <= len(dims) <= 3 or any(d <= 0 for d in dims):
        raise click.BadParameter(f"block shape must have 1 to 3 positive sizes, got {text!r}")
    dims += [1] * (3 - len(dims))
    if limit is not None and dims[0] * dims[1] * dims[2] > limit:
        raise click.BadParameter(f"block {text} has more than 1024 threads")
    return dims[0], dims[1], dims[2]


def parse_bindings(items) -> dict[str, int]:
    """--arg NAME=VALUE pairs; values are integers (sizes, strides, counts)."""
    bound = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or not name.strip().isidentifier():
            raise click.BadParameter(f"--arg expects NAME=VALUE, got {item!r}")
        try:
            bound[name.strip()] = int(value, 0)
        except ValueError:
            raise click.BadParameter(f"--arg {name}: value must be an integer, got {value!r}")
    return bound


def parse_types(items) -> dict[str, str]:
    """--type T=float pairs: a template type parameter and the type it stands for."""
    import re

    from kernelscope.frontend.ctypes import normalise_type

    bound = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        value = normalise_type(value)
        if not sep or not name.strip().isidentifier() or not re.fullmatch(r"[A-Za-z_][\w ]*", value):
            raise click.BadParameter(f"--type expects NAME=TYPE such as T=float, got {item!r}")
        bound[name.strip()] = value
    return bound


def parse_defines(items) -> dict[str, str]:
    """-D NAME or -D NAME=VALUE, as a compiler takes them."""
    defines = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not name.isidentifier():
            raise click.BadParameter(f"-D expects NAME or NAME=VALUE, got {item!r}")
        defines[name] = value if sep else "1"
    return defines


# ---------------------------------------------------------------------------------------------------
# Options every analysing command shares (analyze, features, roofline): one spelling, one default,
# one help text each.

DEFAULT_ARCH = "sm_90"
DEFAULT_REGISTERS = "auto"
REGISTER_CHOICES = ("auto", "ptxas", "estimate")
REGISTERS_HELP = ("Registers per thread: auto = nvcc -Xptxas -v when nvcc is on PATH, else an estimate; "
                  "ptxas = require nvcc; estimate = never run nvcc.  [default: auto]")


def analysis_options(command):
    """--arch, --block, --grid, --arg, -D/--define and --registers, each defaulting to None so that a
    configuration file can fill what the command line leaves out (see `analysis_settings`)."""
    options = [
        click.option("--arch", default=None, metavar="SM",
                     help=f"GPU architecture to assume (sm_75 ... sm_120).  [default: {DEFAULT_ARCH}]"),
        click.option("--block", default=None, metavar="SHAPE",
                     help="Block shape where no launch site gives one: 256, 16x16 or 8x8x4.  [default: 256]"),
        click.option("--grid", default=None, metavar="SHAPE",
                     help="Grid shape where no launch site gives one (grid-stride loops, totals): 1024 or 64x64."),
        click.option("--arg", "args", multiple=True, metavar="NAME=VALUE",
                     help="Bind a scalar kernel parameter (repeatable): loop counts and strides become numbers."),
        click.option("-D", "--define", "defines", multiple=True, metavar="NAME[=VALUE]",
                     help="Define a preprocessor macro, as for the compiler (repeatable)."),
        click.option("--registers", type=click.Choice(REGISTER_CHOICES), default=None, help=REGISTERS_HELP),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def analysis_settings(arch=None, block=None, grid=None, args=(), defines=(), registers=None, configured=None,
                      **extra):
    """kernelscope.analyze.Options from the shared options; `configured` (a lint Settings found for
    the file) fills arch, block, defines and registers the command line did not give."""
    from kernelscope.analyze import Options

    defined = parse_defines(defines)
    if configured is not None and configured.source is not None:
        arch = arch or configured.arch
        block_shape = parse_block(block) if block else configured.block
        defined = {**dict(configured.defines), **defined}
        registers = registers or configured.registers
    else:
        block_shape = parse_block(block)
    return Options(arch=arch or DEFAULT_ARCH, block=block_shape, grid=parse_block(grid, limit=None),
                   bindings=parse_bindings(args), defines=defined, registers=registers or DEFAULT_REGISTERS,
                   **extra)


def write_output(text: str | list[str], output: str | None) -> None:
    """To the file named by -o, or standard output. A file that cannot be written is a usage error.
    `text` may come in pieces (a list of str), written one after the other: a large report is never
    joined into one string, nor encoded into one bytes object (analysis_json.render_pieces)."""
    pieces = [text] if isinstance(text, str) else _batched(text)
    if not output or output == "-":
        if not isinstance(text, str) and _in_memory(sys.stdout):
            # a stream in memory (click's CliRunner: tests, in-process benchmarks) keeps the whole text
            # anyway, and grows its buffer by copying it at each write: the realistic report in 256 KB
            # writes copied 80 MB (30 M instructions)
            pieces = ["".join(text)]
        for piece in pieces:
            echo(piece, nl=False, color=True)  # colour, if any, was already decided by the renderer
        return
    try:
        with open(output, "w", encoding="utf-8") as handle:
            handle.writelines(pieces)
    except OSError as exc:
        fail(f"cannot write {output}: {exc.strerror or exc}")


def echo(message: str = "", nl: bool = True, err: bool = False, color: bool | None = None) -> None:
    """click.echo, for every command's output. To a stream in memory (click's CliRunner, which tests,
    batch drivers and in-process benchmarks run commands through in a loop) the stream is passed by
    name: given none, click.echo looks up a text wrapper for the current standard stream in a weak-keyed
    cache whose entry refers to its own key when the stream is a text stream already, so the entry never
    goes, and each invocation's captured output stayed alive to the end of the process (click 8.x;
    13 MB more memory per `analyze --format json` of the 800-kernel file; tests/test_echo_memory.py).
    A real standard stream keeps click's wrapper, which mends a misconfigured encoding."""
    stream = sys.stderr if err else sys.stdout
    if _in_memory(stream):
        click.echo(message, nl=nl, color=color, file=stream)
    else:
        click.echo(message, nl=nl, err=err, color=color)


def _in_memory(stream) -> bool:
    """Whether `stream` is a stream in memory (click's CliRunner), not a file descriptor nor missing
    (sys.stdout is None in a process started without one)."""
    return stream is not None and not _is_os_file(stream)


def _is_os_file(stream) -> bool:
    """Whether `stream` writes to a file descriptor (a file, pipe or terminal), not to memory."""
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):    # io.UnsupportedOperation is both of the last two
        return False
    return True


def _batched(pieces: list[str], size: int = 1 << 18):
    """The pieces joined into texts of about `size` characters: one write (and, for standard output,
    one flush) each, instead of one per kernel's text."""
    batch: list[str] = []
    length = 0
    for piece in pieces:
        batch.append(piece)
        length += len(piece)
        if length >= size:
            yield "".join(batch)
            batch, length = [], 0
    if batch:
        yield "".join(batch)


# ---------------------------------------------------------------------------------------------------
# Verbosity, colour and progress: set once by the `kernelscope` group (-q/-v, --color, NO_COLOR)


class Terminal:
    """How much to say on stderr, and whether to colour it. Quiet: errors only; verbose: also what
    is being done and how long it took."""

    def __init__(self):
        self.verbosity = 0          # -1 quiet, 0 normal, 1+ verbose
        self.color_mode = "auto"    # auto | always | never

    @property
    def quiet(self) -> bool:
        return self.verbosity < 0

    def color(self, stream=None) -> bool:
        import os

        if self.color_mode == "always":
            return True
        if self.color_mode == "never" or os.environ.get("NO_COLOR", "") != "":  # no-color.org
            return False
        stream = stream or sys.stdout
        return bool(getattr(stream, "isatty", lambda: False)()) and os.environ.get("TERM") != "dumb"

    def note(self, message: str) -> None:
        """A status line on stderr (not in quiet mode)."""
        if not self.quiet:
            echo(message, err=True)

    def detail(self, message: str) -> None:
        """Only with -v."""
        if self.verbosity > 0:
            echo(message, err=True)

    def progress(self, label: str):
        """A callback(done, total) drawing a bar on stderr, or None when quiet or not on a terminal
        (a bar in a CI log is a wall of carriage returns)."""
        if self.quiet or not sys.stderr.isatty():
            return None
        return _Bar(label)


class _Bar:
    def __init__(self, label: str):
        self.label = label

    def __call__(self, done: int, total: int) -> None:
        if not total:
            return
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


TERMINAL = Terminal()
