"""Lint settings: defaults, then the nearest configuration file, then the command line.

A file is governed by the nearest `pyproject.toml` with a `[tool.kernelscope]` table, or else the
nearest `setup.cfg` with a `[kernelscope]` section, found by walking up from the file's directory
(pyproject.toml wins when both sit in one directory). `--config FILE` names one file for all.
Flags given on the command line replace the configured value of the same setting; `--severity`
replaces the configured level of the codes it names and keeps the others.

Rule selection works on code prefixes ("KS", "KS2", "KS20", "KS201", or "ALL"). When both `select`
and `ignore` match a code, the longer (more specific) prefix decides, and `ignore` wins a tie, so
`select = ["KS2"]` with `ignore = ["KS20"]` and `select = ["KS203"]` behave as one expects.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import os
import stat
import time
from dataclasses import field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Optional

from kernelscope import rules
from kernelscope.errors import UsageError
from kernelscope.model import SEVERITIES
from kernelscope.records import record

if TYPE_CHECKING:
    import configparser

DEFAULT_INCLUDE = ("*.cu", "*.cuh")
# Directories nobody wants linted by accident; a path named on the command line is always walked.
DEFAULT_EXCLUDE = (".*", "__pycache__", "node_modules")

_LIST_KEYS = ("select", "ignore", "include", "exclude", "extend-exclude", "define", "arg")
_TABLE_KEYS = ("severity", "per-file-ignores")
_SCALAR_KEYS = ("arch", "block", "grid", "fail-on", "registers", "show-info")
# Every command's default is "auto" (ptxas where nvcc is installed, an estimate elsewhere); a CI job
# that wants findings independent of the toolchain sets registers = "estimate" in its configuration.
REGISTER_MODES = ("estimate", "ptxas", "auto")


@record(frozen=True)
class Settings:
    """Everything that decides how one file is linted. Immutable and picklable (sent to workers)."""
    root: Path = field(default_factory=Path.cwd)   # where relative patterns are anchored
    source: Optional[Path] = None                  # the configuration file, if any
    select: tuple = ("ALL",)
    ignore: tuple = ()
    severity: tuple = ()                           # ((prefix, level), ...)
    per_file_ignores: tuple = ()                   # ((glob, (prefix, ...)), ...)
    include: tuple = DEFAULT_INCLUDE
    exclude: tuple = DEFAULT_EXCLUDE
    arch: str = "sm_90"
    block: Optional[tuple] = None
    grid: Optional[tuple] = None                   # where no launch site gives one
    bindings: tuple = ()                           # ((parameter, integer value), ...)
    defines: tuple = ()                            # ((name, value), ...)
    types: tuple = ()                              # ((template parameter, type), ...) from --type
    registers: str = "auto"
    fail_on: str = "error"
    # Info findings are advice, not CI failures: `kernelscope lint` hides them unless asked
    # (CLI_DEFAULTS); library callers (lint_text, reward functions) see everything.
    show_info: bool = True

    def is_enabled(self, code: str, path: str | os.PathLike | None = None) -> bool:
        """Whether findings of `code` are reported for the file at `path`."""
        if not _selected(code, self.select, self.ignore):
            return False
        if path is not None:
            relative = self.relative(path)
            for pattern, prefixes in self.per_file_ignores:
                if glob_matches(pattern, relative) and any(_prefix_matches(p, code) for p in prefixes):
                    return False
        return True

    def severity_for(self, code: str) -> str:
        """The configured level of `code`: the most specific override, else the rule's default."""
        best, level = -1, None
        for prefix, value in self.severity:
            length = _specificity(prefix)
            if _prefix_matches(prefix, code) and length >= best:
                best, level = length, value
        return level or rules.severity_of(code)

    def is_failing(self, severity: str) -> bool:
        return SEVERITIES.index(severity) >= SEVERITIES.index(self.fail_on)

    def relative(self, path: str | os.PathLike) -> str:
        """`path` relative to the configuration root, with forward slashes (for glob matching)."""
        absolute = Path(os.path.abspath(path))
        try:
            return absolute.relative_to(self.root).as_posix()
        except ValueError:
            return absolute.as_posix()


@record(frozen=True)
class Overrides:
    """Settings given on the command line; None means "not given"."""
    select: Optional[tuple] = None
    ignore: Optional[tuple] = None
    severity: tuple = ()
    include: Optional[tuple] = None
    extend_exclude: tuple = ()          # added to the configured exclusions, never replacing them
    arch: Optional[str] = None
    block: Optional[tuple] = None
    grid: Optional[tuple] = None
    bindings: Optional[tuple] = None
    defines: Optional[tuple] = None
    types: Optional[tuple] = None
    registers: Optional[str] = None
    fail_on: Optional[str] = None
    show_info: Optional[bool] = None

    def apply(self, settings: Settings) -> Settings:
        # the fields' own values: asdict would deep-copy them (they are immutable) at a cost paid by
        # every command run
        changes = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                   if getattr(self, f.name) is not None and f.name not in ("severity", "extend_exclude")}
        if self.severity:
            changes["severity"] = settings.severity + tuple(self.severity)
        if self.extend_exclude:
            changes["exclude"] = settings.exclude + tuple(self.extend_exclude)
        # Settings are immutable, so nothing to change (`analyze` has no overrides) means the same
        # object: dataclasses.replace would build an equal one at twice the cost of the rest
        return dataclasses.replace(settings, **changes) if changes else settings


class SettingsResolver:
    """Finds and caches the settings that govern each file or directory. `defaults` are what a
    configuration file's absent keys mean."""

    def __init__(self, overrides: Overrides = Overrides(), config_file: str | os.PathLike | None = None,
                 defaults: Settings | None = None):
        self.overrides = overrides
        self.defaults = defaults or _defaults_in(os.getcwd())
        self._forced = overrides.apply(load_config_file(Path(config_file), self.defaults)) if config_file else None
        self._by_directory: dict = {}
        self._by_file: dict = {}

    def for_path(self, path: str | os.PathLike) -> Settings:
        if self._forced is not None:
            return self._forced
        # plain strings on the way up: pathlib's joins and comparisons cost more than the stats
        # of the directories they name, and every command run pays them
        path = os.path.abspath(path)
        return self._for_directory(path if os.path.isdir(path) else os.path.dirname(path))

    def _for_directory(self, directory: str) -> Settings:
        if directory not in self._by_directory:
            found = _config_in(directory)
            parent = os.path.dirname(directory)
            if found is not None:
                if found not in self._by_file:
                    self._by_file[found] = self.overrides.apply(load_config_file(found, self.defaults))
                settings = self._by_file[found]
            elif parent != directory:
                settings = self._for_directory(parent)
            else:
                settings = self._unconfigured()
            self._by_directory[directory] = settings
        return self._by_directory[directory]

    def _unconfigured(self) -> Settings:
        """What governs a file no configuration file covers: the defaults rooted at the working
        directory, with the overrides. Kept for the process by all three: a command run in process
        (a batch driver, the reward service) makes a resolver per run, and building these settings
        cost more than the walk up the directories that found no file."""
        cwd = os.getcwd()
        key = (self.overrides, self.defaults, cwd)
        settings = _UNCONFIGURED.get(key)
        if settings is None:
            settings = self.overrides.apply(dataclasses.replace(self.defaults, root=Path(cwd)))
            _remember(_UNCONFIGURED, key, settings)
        return settings


def _defaults_in(cwd: str) -> Settings:
    """Settings() made in the working directory `cwd` (its root), kept per directory."""
    settings = _DEFAULTS_IN.get(cwd)
    if settings is None:
        settings = Settings(root=Path(cwd))
        _remember(_DEFAULTS_IN, cwd, settings)
    return settings


def _remember(table: dict, key, value, limit: int | None = None) -> None:
    """table[key] = value, emptying the table first when it holds `limit` entries (_TABLE_LIMIT)."""
    if len(table) >= (limit or _TABLE_LIMIT):
        table.clear()
    table[key] = value


# Per process, for resolvers to come (all immutable): Settings() by working directory; the settings
# of unconfigured files by overrides, defaults and working directory; what find_config_in found in
# a directory, with the stat signatures of its two candidate files when it looked
_DEFAULTS_IN: dict[str, Settings] = {}
_UNCONFIGURED: dict[tuple, Settings] = {}
_FOUND_IN: dict[str, tuple[tuple, Optional[Path]]] = {}
_TABLE_LIMIT = 256


def _config_in(directory: str) -> Optional[Path]:
    """find_config_in(directory), remembered while neither candidate file changes. A directory
    that holds either file (a project's root) costs a read of each per lookup otherwise; a stat of
    each tells whether the last verdict still stands."""
    signature = (_signature(os.path.join(directory, "pyproject.toml")),
                 _signature(os.path.join(directory, "setup.cfg")))
    if signature == _NEITHER:
        return None
    if _UNSETTLED in signature:
        return find_config_in(directory)
    known = _FOUND_IN.get(directory)
    if known is not None and known[0] == signature:
        return known[1]
    found = find_config_in(directory)
    _remember(_FOUND_IN, directory, (signature, found))
    return found


_ABSENT = "absent"
_UNSETTLED = "unsettled"
_NEITHER = (_ABSENT, _ABSENT)
# A file changed this recently may change again within the file system's clock tick and keep its
# stat signature (git's "racy" index entries): its verdict is not remembered.
_SETTLED_NS = 3_000_000_000


def _signature(path: str):
    """What changes when the file at `path` is created, removed, replaced or written: its stat
    identity, size and times; _ABSENT or _UNSETTLED where those cannot vouch for its content."""
    try:
        status = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return _ABSENT
    except OSError:
        return _UNSETTLED
    # any write or rename sets the change time to now, and no one can set it back
    if time.time_ns() - max(status.st_mtime_ns, status.st_ctime_ns) < _SETTLED_NS:
        return _UNSETTLED
    return (status.st_dev, status.st_ino, status.st_mode, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def find_config_in(directory: str | os.PathLike) -> Optional[Path]:
    """The configuration file in `directory` that has a kernelscope section, if any.

    A file whose text cannot hold the section (no `kernelscope` in a pyproject.toml, no
    `[kernelscope]` header in a setup.cfg) is not parsed: most projects' files are someone else's
    configuration, and parsing them cost more than analysing a small kernel."""
    pyproject = os.path.join(directory, "pyproject.toml")
    if _mentions(pyproject, b"kernelscope") and "kernelscope" in _read_toml(pyproject).get("tool", {}):
        return Path(pyproject)
    setup_cfg = os.path.join(directory, "setup.cfg")
    if _mentions(setup_cfg, b"[kernelscope]") and _read_ini(setup_cfg).has_section("kernelscope"):
        return Path(setup_cfg)
    return None


def _mentions(path: str, needle: bytes) -> bool:
    """Whether `path` is a readable file whose bytes contain `needle`. An unreadable file counts as
    mentioning it, so that parsing it reports the error. Most directories on the way up hold neither
    file: a stat answers for them without the cost of a failed open()."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True
    try:
        with open(path, "rb") as handle:
            return needle in handle.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return False
    except OSError:
        return True


def load_config_file(path: Path, defaults: Settings | None = None) -> Settings:
    """Settings from one configuration file (pyproject.toml, setup.cfg, or a kernelscope.toml
    holding the same keys at top level)."""
    path = Path(os.path.abspath(path))
    if not path.is_file():
        raise UsageError(f"configuration file {path} does not exist")
    if path.suffix == ".toml":
        document = _read_toml(path)
        table = document.get("tool", {}).get("kernelscope", {}) if path.name == "pyproject.toml" else document
        values = _from_toml(table, path)
    else:
        parser = _read_ini(path)
        if not parser.has_section("kernelscope"):
            raise UsageError(f"{path} has no [kernelscope] section")
        values = _from_ini(parser["kernelscope"], path)
    return _build(values, root=path.parent, source=path, defaults=defaults)


def _read_toml(path: str | os.PathLike) -> dict:
    """The parsed document of a TOML file. Treat it as read-only: a process that analyses many files
    (the reward service, batch evaluation, a CliRunner loop) asks for the same pyproject.toml once
    per file, and parsing it again cost more than finding it, so equal bytes get the same dict."""
    # tomllib and configparser are imported only when a configuration file is read: most runs of
    # `analyze` find none (a few million instructions of its start-up)
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    key = os.path.abspath(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    # Keyed by the bytes themselves, not by the file's modification time: two writes within one
    # clock tick of the file system would otherwise read back the first one's settings.
    known = _PARSED_TOML.get(key)
    if known is not None and known[0] == data:
        return known[1]
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    _remember(_PARSED_TOML, key, (data, document), limit=_PARSED_TOML_LIMIT)
    return document


# absolute path -> (the bytes read, their parsed document); a few files per project
_PARSED_TOML: dict[str, tuple[bytes, dict]] = {}
_PARSED_TOML_LIMIT = 64


def _read_ini(path: str | os.PathLike) -> configparser.ConfigParser:
    import configparser

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(path, encoding="utf-8")
    except (OSError, configparser.Error, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    return parser


def _from_toml(table: dict, path: Path) -> dict:
    values = {}
    for key, value in table.items():
        if key in _TABLE_KEYS:
            if not isinstance(value, dict):
                raise UsageError(f"{path}: '{key}' must be a table")
            values[key] = {k: _as_list(v, key, path) if key == "per-file-ignores" else v
                           for k, v in value.items()}
        elif key in _LIST_KEYS:
            values[key] = _as_list(value, key, path)
        elif key in _SCALAR_KEYS:
            values[key] = value
        elif not isinstance(value, dict):  # sub-tables belong to other kernelscope commands
            raise UsageError(f"{path}: unknown key '{key}' in the kernelscope configuration")
    return values


def _from_ini(section, path: Path) -> dict:
    values = {}
    for key, raw in section.items():
        if key in _TABLE_KEYS:
            # One "pattern: value" per line, as flake8 writes per-file-ignores.
            table = {}
            for line in filter(None, (l.strip() for l in raw.splitlines())):
                pattern, sep, rest = line.rpartition(":") if key == "severity" else line.partition(":")
                if not sep:
                    raise UsageError(f"{path}: '{key}' lines must look like 'pattern: value', got {line!r}")
                table[pattern.strip()] = _split(rest) if key == "per-file-ignores" else rest.strip()
            values[key] = table
        elif key in _LIST_KEYS:
            values[key] = _split(raw)
        elif key in _SCALAR_KEYS:
            values[key] = raw.strip()
        else:
            raise UsageError(f"{path}: unknown key '{key}' in [kernelscope]")
    return values


def _as_list(value, key: str, path: Path) -> list:
    if isinstance(value, str):
        return _split(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise UsageError(f"{path}: '{key}' must be a list of strings")


def _split(text: str) -> list:
    return [part.strip() for part in text.replace("\n", ",").split(",") if part.strip()]


def _build(values: dict, root: Path, source: Optional[Path], defaults: Settings | None = None) -> Settings:
    where = str(source)
    changes = {"root": root, "source": source}
    for key in ("select", "ignore"):
        if key in values:
            changes[key] = check_prefixes(values[key], where)
    if "severity" in values:
        changes["severity"] = parse_severity_table(values["severity"], where)
    if "per-file-ignores" in values:
        changes["per_file_ignores"] = tuple(
            (pattern, check_prefixes(codes, where)) for pattern, codes in values["per-file-ignores"].items())
    if "include" in values:
        changes["include"] = tuple(values["include"])
    if "exclude" in values:
        changes["exclude"] = tuple(values["exclude"])
    if "extend-exclude" in values:
        changes["exclude"] = changes.get("exclude", DEFAULT_EXCLUDE) + tuple(values["extend-exclude"])
    if "arch" in values:
        changes["arch"] = str(values["arch"])
    if "block" in values:
        changes["block"] = parse_block_value(values["block"], where)
    if "grid" in values:
        changes["grid"] = parse_block_value(values["grid"], where, "grid")
    if "arg" in values:
        changes["bindings"] = tuple(parse_binding(item, where) for item in values["arg"])
    if "define" in values:
        changes["defines"] = tuple(parse_define(item, where) for item in values["define"])
    if "registers" in values:
        changes["registers"] = str(values["registers"])
        if changes["registers"] not in REGISTER_MODES:
            raise UsageError(f"{where}: registers must be one of {', '.join(REGISTER_MODES)}")
    if "fail-on" in values:
        changes["fail_on"] = check_level(str(values["fail-on"]), where)
    if "show-info" in values:
        changes["show_info"] = parse_flag(values["show-info"], where, "show-info")
    return dataclasses.replace(defaults or Settings(), **changes)


# What `kernelscope lint` assumes where neither a configuration file nor a flag decides.
CLI_DEFAULTS = Settings(show_info=False)


def check_prefixes(items, where: str) -> tuple:
    """Upper-cased code prefixes, each matching at least one rule (typos are errors, not no-ops)."""
    prefixes = []
    for item in items:
        prefix = item.strip().upper()
        if not rules.matching(prefix):
            raise UsageError(f"{where}: '{item}' matches no rule code")
        prefixes.append(prefix)
    return tuple(prefixes)


def check_level(level: str, where: str) -> str:
    level = level.strip().lower()
    if level not in SEVERITIES:
        raise UsageError(f"{where}: severity must be one of {', '.join(SEVERITIES)}, got {level!r}")
    return level


def parse_severity_table(table: dict, where: str) -> tuple:
    return tuple((check_prefixes([code], where)[0], check_level(str(level), where))
                 for code, level in table.items())


def parse_block_value(value, where: str, what: str = "block") -> tuple:
    """A block (or grid) shape from a configuration value: 256, "16x16", [8, 8, 4]."""
    dims = value if isinstance(value, list) else str(value).lower().replace(",", "x").split("x")
    try:
        dims = [int(d) for d in dims]
    except (TypeError, ValueError):
        raise UsageError(f"{where}: {what} must look like 256, 16x16 or 8x8x4, got {value!r}") from None
    if not 1 <= len(dims) <= 3 or any(d <= 0 for d in dims):
        raise UsageError(f"{where}: {what} must have 1 to 3 positive sizes, got {value!r}")
    dims += [1] * (3 - len(dims))
    return tuple(dims)


def parse_binding(item: str, where: str) -> tuple:
    """NAME=VALUE binding a kernel's integer parameter, as `analyze --arg` takes it."""
    name, sep, value = str(item).partition("=")
    if not sep or not name.strip().isidentifier():
        raise UsageError(f"{where}: arg expects NAME=VALUE, got {item!r}")
    try:
        return name.strip(), int(value.strip(), 0)
    except ValueError:
        raise UsageError(f"{where}: arg {name.strip()}: value must be an integer, got {value!r}") from None


def parse_flag(value, where: str, key: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise UsageError(f"{where}: {key} must be true or false, got {value!r}")


def parse_define(item: str, where: str) -> tuple:
    name, sep, value = item.partition("=")
    if not name.strip().isidentifier():
        raise UsageError(f"{where}: define expects NAME or NAME=VALUE, got {item!r}")
    return name.strip(), value if sep else "1"


def _specificity(prefix: str) -> int:
    return 0 if prefix == "ALL" else len(prefix)


def _prefix_matches(prefix: str, code: str) -> bool:
    return prefix == "ALL" or code.startswith(prefix)


def _selected(code: str, select: tuple, ignore: tuple) -> bool:
    chosen = max((_specificity(p) for p in select if _prefix_matches(p, code)), default=-1)
    dropped = max((_specificity(p) for p in ignore if _prefix_matches(p, code)), default=-1)
    return chosen >= 0 and chosen > dropped


def glob_matches(pattern: str, relative: str) -> bool:
    """Patterns without a slash match the file name anywhere; others match the relative path.
    As in fnmatch, `*` also matches across `/`."""
    if "/" not in pattern:
        return fnmatch.fnmatchcase(PurePosixPath(relative).name, pattern)
    return fnmatch.fnmatchcase(relative, pattern[2:] if pattern.startswith("./") else pattern)
