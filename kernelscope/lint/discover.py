"""Which files a lint run looks at.

A file named on the command line is always linted. A directory is walked: files matching the
`include` globs are linted, and files and directories matching `exclude` are skipped, each judged by
the settings that govern its own directory (so a nested configuration can exclude its own folders).
"""

from __future__ import annotations

import os

from kernelscope.errors import InputError
from kernelscope.lint.config import SettingsResolver, glob_matches


def discover(paths, resolver: SettingsResolver) -> list:
    """Files to lint, as paths the user will recognise (joined onto the arguments given)."""
    found, seen = [], set()

    def add(path: str):
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            found.append(path)

    for argument in paths:
        argument = os.fspath(argument)
        if os.path.isfile(argument):
            add(argument)
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


def _excluded(path: str, settings) -> bool:
    relative = settings.relative(path)
    return any(glob_matches(pattern, relative) for pattern in settings.exclude)
