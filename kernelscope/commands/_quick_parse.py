"""Parsing a plain command line without click's general machinery.

Click builds an option parser, a help option and a round of source, default, deprecation and
callback bookkeeping for every parameter on every invocation: about 200 us per `kernelscope
analyze FILE` run in one process (a batch driver, the reward service, CliRunner loops), a twentieth
of analysing a small file. Most command lines are plain: known options spelled out (`--format
json`, `--arg=N=4`, `-o out`), flags, and paths. `QuickParsing.parse_args` reads those itself and
converts every value with the parameter's own click type, so the values are click's; anything else
(help, `--`, bundled short flags, an unknown or misspelt option, a missing value, a value its type
refuses, environment variables or a default map, shell completion) goes to click's own parser,
which also words every error message.
"""

from __future__ import annotations

import click
from click.core import ParameterSource

# click >= 8.2 marks "no default given" with a sentinel of its own; click 8.1 with None
_UNSET = getattr(click.core, "UNSET", None)
_NO_DEFAULT = (None, _UNSET)


class QuickParsing(click.Command):
    """A command (or, as a base after click.Group, a group) whose plain command lines are read
    without click's option parser. See the module's docstring."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        parsed = quick_parse(self, ctx, args)
        if parsed is None:
            return super().parse_args(ctx, args)
        values, given, rest, prefixes = parsed
        for name, value in values.items():
            ctx.params[name] = value
            ctx.set_parameter_source(name, ParameterSource.COMMANDLINE if name in given else ParameterSource.DEFAULT)
        ctx.args = rest
        # what click's parser leaves for shell completion of the subcommand's options
        if hasattr(ctx, "_opt_prefixes"):
            ctx._opt_prefixes.update(prefixes)
        return rest


class _Table:
    """What the quick parse needs of a command's parameters, worked out once per command."""

    def __init__(self, command: click.Command):
        self.params = tuple(command.params)
        self.long: dict[str, click.Option] = {}       # --name (also -name): `=value` allowed
        self.short: dict[str, click.Option] = {}      # -x: the value is the next argument
        self.prefixes: set[str] = set()
        self.argument = None                          # the one nargs=-1 argument, if any
        self.choices: dict[click.Parameter, frozenset] = {}    # see _plain_choices
        self.usable = self._read(command)

    def _read(self, command: click.Command) -> bool:
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):       # feature switches share a name: click arbitrates
            return False
        for param in self.params:
            if not _plain(param):
                return False
            if isinstance(param, click.Argument):
                if self.argument is not None or param.nargs != -1:
                    return False
                self.argument = param
                continue
            if not isinstance(param, click.Option) or param.secondary_opts:
                return False
            if _plain_choices(param.type):
                self.choices[param] = frozenset(param.type.choices)
            for opt in param.opts:
                prefix, rest = _split_opt(opt)
                if not prefix:
                    return False
                self.prefixes.add(prefix)
                (self.short if len(prefix) == 1 and len(rest) == 1 else self.long)[opt] = param
        return True


def _plain(param: click.Parameter) -> bool:
    """Whether a parameter's value is decided by the command line and its default alone, the way
    the quick parse decides it."""
    if param.envvar or getattr(param, "deprecated", False) or callable(param.default):
        return False
    if param.callback is not None:
        # --version and --help's kind: eager, not passed to the command, acting only when given
        return param.is_eager and not param.expose_value and getattr(param, "is_flag", False)
    if isinstance(param, click.Argument):
        return param.default in _NO_DEFAULT
    if getattr(param, "prompt", None) is not None or param.nargs != 1:
        return False
    # a flag or counter whose default is None stays None when not given ("not said", which a
    # configuration file may then decide): only the usual defaults are the quick parse's
    if param.count:
        return param.default is _UNSET or (param.default == 0 and param.default is not False)
    if param.is_flag:
        return param.is_bool_flag and (param.default is False or param.default is _UNSET)
    if param.multiple:
        return param.default in _NO_DEFAULT
    return True


def _plain_choices(kind: click.ParamType) -> bool:
    """Whether a value of this type is valid exactly when it is one of the choices, and is then
    that choice: click's own Choice of strings, case-sensitive (its convert() builds a table of
    normalised choices per call, the larger part of a quick parse's time)."""
    return (type(kind) is click.Choice and kind.case_sensitive
            and all(isinstance(choice, str) for choice in kind.choices))


def _split_opt(opt: str) -> tuple[str, str]:
    """An option string's prefix and name, as click splits them."""
    first = opt[:1]
    if first.isalnum():
        return "", opt
    if opt[1:2] == first:
        return opt[:2], opt[2:]
    return first, opt[1:]


def _table(command: click.Command) -> _Table:
    table = command.__dict__.get("_quick_table")
    if table is None or len(table.params) != len(command.params) or any(
            a is not b for a, b in zip(table.params, command.params)):
        table = command._quick_table = _Table(command)
    return table


def quick_parse(command: click.Command, ctx: click.Context, args: list[str]):
    """(values by parameter name, names given on the line, arguments left for a group's
    subcommand, option prefixes), or None where click's own parser must decide."""
    if (not args or ctx.params or ctx.resilient_parsing or ctx.token_normalize_func is not None
            or ctx.default_map or ctx.auto_envvar_prefix is not None or ctx.ignore_unknown_options):
        return None
    table = _table(command)
    if not table.usable:
        return None
    read = _read_line(table, args, ctx.allow_interspersed_args)
    if read is None:
        return None
    given, positionals, rest = read
    if positionals and table.argument is None:
        return None
    try:
        values = _values(table, ctx, given, positionals)
    except Exception:   # a value its type refuses: click says why, in its own words
        return None
    if values is None:
        return None
    names = {param.name for param in given}
    if positionals:
        names.add(table.argument.name)
    return values, names, rest, table.prefixes


def _read_line(table: _Table, args: list[str], interspersed: bool):
    """Each given option's raw values in order, the positional arguments, and what follows the
    first positional argument where options may not follow it (a group's subcommand); None for
    anything click's parser would treat specially."""
    given: dict[click.Option, list] = {}
    positionals: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg[:1] != "-" or len(arg) == 1:     # click's opt prefixes here are "-" and "--"
            if not interspersed:
                return given, positionals, args[index - 1:]
            positionals.append(arg)
            continue
        name, equals, value = arg.partition("=")
        param = table.long.get(name) if equals else table.short.get(arg) or table.long.get(arg)
        if param is None or param.callback is not None or (equals and (param.is_flag or param.count)):
            return None
        if not param.is_flag and not param.count and not equals:
            if index >= len(args):
                return None
            value = args[index]
            index += 1
        given.setdefault(param, []).append(value)
    return given, positionals, []


def _values(table: _Table, ctx: click.Context, given: dict, positionals: list[str]):
    values = {}
    for param in table.params:
        raw = given.get(param)
        if param is table.argument:
            if not positionals and param.required:
                return None
            value = param.type_cast_value(ctx, tuple(positionals))
        elif raw is None:
            if param.required:
                return None
            value = _default(table, param, ctx)
        elif param.count:
            value = param.type_cast_value(ctx, len(raw))
        elif param.is_flag:
            value = True
        elif param.multiple:
            value = param.type_cast_value(ctx, tuple(raw))
        else:
            value = _single(table, param, ctx, raw[-1])    # given twice: the last one counts
        if param.expose_value:
            values[param.name] = value
    return values


def _single(table: _Table, param: click.Parameter, ctx: click.Context, raw):
    choices = table.choices.get(param)
    if choices is not None and isinstance(raw, str) and raw in choices:
        return raw
    return param.type_cast_value(ctx, raw)


def _default(table: _Table, param: click.Parameter, ctx: click.Context):
    if param.count:
        return 0
    if param.is_flag:
        return False
    if param.default in _NO_DEFAULT:
        return () if param.multiple else None
    return param.type_cast_value(ctx, param.default) if param.multiple else _single(table, param, ctx, param.default)
