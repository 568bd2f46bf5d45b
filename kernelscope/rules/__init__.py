"""The lint rule registry: the single place that knows every finding code.

Each family module declares its rules as documentation classes (see `_base.Rule`); this module
collects them. Analyses emit `Diagnostic(rule=code, ...)`; the lint engine, the reporters and
`kernelscope rules` look codes up here, so a rule's default severity is defined exactly once.
"""

from __future__ import annotations

from kernelscope.rules import memory, parse, performance, resources, sync
from kernelscope.rules._base import SECTIONS, Rule

__all__ = ["FAMILIES", "SECTIONS", "Rule", "all_rules", "get", "severity_of", "matching"]

# Family prefix -> (title, module declaring its rules).
FAMILIES = {
    "KS1": ("memory", memory),
    "KS2": ("synchronization", sync),
    "KS3": ("resources and occupancy", resources),
    "KS4": ("performance", performance),
    "KS9": ("parse problems", parse),
}


def _collect() -> dict:
    by_code = {}
    for prefix, (_, module) in FAMILIES.items():
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Rule) and value.__module__ == module.__name__:
                if not value.code.startswith(prefix):
                    raise TypeError(f"{value.code} is declared in the {prefix}xx family module")
                if value.code in by_code:
                    raise TypeError(f"{value.code} is declared twice")
                by_code[value.code] = value
    return dict(sorted(by_code.items()))


_BY_CODE = _collect()
_BY_NAME = {rule.name: rule for rule in _BY_CODE.values()}


def all_rules() -> tuple:
    """Every rule, ordered by code."""
    return tuple(_BY_CODE.values())


def get(code_or_name: str) -> type[Rule]:
    """The rule with this code ("KS101", any case) or name ("uncoalesced-global-access").
    Raises KeyError for anything else."""
    key = code_or_name.strip()
    rule = _BY_CODE.get(key.upper()) or _BY_NAME.get(key.lower())
    if rule is None:
        raise KeyError(code_or_name)
    return rule


def severity_of(code: str) -> str:
    """The default severity of a rule code."""
    return get(code).severity


def matching(prefix: str) -> tuple:
    """Rules whose code starts with `prefix` ("KS", "KS2", "KS20", "KS201"); "ALL" means every rule."""
    prefix = prefix.strip().upper()
    if prefix == "ALL":
        return all_rules()
    return tuple(rule for code, rule in _BY_CODE.items() if code.startswith(prefix))
