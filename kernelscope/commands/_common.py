"""Shared option parsing and error handling for the commands."""

from __future__ import annotations

import functools
import sys

import click

from kernelscope.errors import KernelscopeError


def fail(message: str) -> "NoReturn":  # noqa: F821
    click.echo(f"kernelscope: error: {message}", err=True)
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


def parse_defines(items) -> dict[str, str]:
    """-D NAME or -D NAME=VALUE, as a compiler takes them."""
    defines = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not name.isidentifier():
            raise click.BadParameter(f"-D expects NAME or NAME=VALUE, got {item!r}")
        defines[name] = value if sep else "1"
    return defines
