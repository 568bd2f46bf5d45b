"""Which files a lint run looks at.

A file named on the command line is linted when it is C, C++ or CUDA source or matches the
`include` globs; anything else (a README.md handed over by a `git diff --name-only`) is skipped, and
the caller says so. A directory is walked: files matching the
`include` globs are linted, and files and directories matching `exclude` are skipped, each judged by
the settings that govern its own directory (so a nested configuration can exclude its own folders).
"""

from __future__ import annotations

import os

from kernelscope.errors import InputError
from kernelscope.lint.config import SettingsResolver, glob_matches


# Named on the command line, these are linted even when the include globs leave them out: they hold
# kernels or the headers kernels include.
SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hh", ".hpp", ".hxx", ".c", ".cc", ".cpp", ".cxx", ".inl", ".inc")


def discover(paths, resolver: SettingsResolver, skipped: list | None = None) -> list:
    """Files to lint, as paths the user will recognise (joined onto the arguments given). Named
    files that are not source go to `skipped` when a list is given."""
    found, seen = [], set()

    def add(path: str):
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            found.append(path)

    for argument in paths:
        argument = os.fspath(argument)
        if os.path.isfile(argument):
            if _is_source(argument, resolver):
                add(argument)
            elif skipped is not None:
                skipped.append(argument)
        elif os.path.isdir(argument):
            for path in _walk(argument, resolver):
                add(path)
        else:
            raise InputError(f"{argument}: no such file or directory")
    return found


def _walk(top: str, resolver: SettingsResolver):
    for directory, subdirectories, files in os.walk(top):
        settings = resolver.for_path(directory)
        subdirectories[:] = sorted(
            d for d in subdirectories if not _excluded(os.path.join(directory, d), settings))
        for name in sorted(files):
            path = os.path.normpath(os.path.join(directory, name))
            relative = settings.relative(path)
            if any(glob_matches(p, relative) for p in settings.include) and not _excluded(path, settings):
                yield path


def _is_source(path: str, resolver: SettingsResolver) -> bool:
    settings = resolver.for_path(path)
    return path.lower().endswith(SOURCE_SUFFIXES) or \
        any(glob_matches(p, settings.relative(path)) for p in settings.include)


def _excluded(path: str, settings) -> bool:
    relative = settings.relative(path)
    return any(glob_matches(pattern, relative) for pattern in settings.exclude)
