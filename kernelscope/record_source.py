"""The source of kernelscope/_record_methods.py: for each class `kernelscope.records.record` made, a
function that writes the methods `dataclasses.dataclass` would generate for it.

Used by tools/write_record_methods.py, which writes the file, and by tests/test_records.py, which checks
that the file is what this module writes now.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re

from kernelscope import records

HEADER = '''"""Methods of the classes `kernelscope.records.record` makes, written out so that importing them
compiles nothing. Written by tools/write_record_methods.py from the classes as they are; do not edit.
Run that tool again after changing a record class (tests/test_records.py says when).

CLASSES: qualified class name -> (shape, factory, docstring or None). `shape` is what the methods
depend on (records.class_shape); a factory takes the class and the defaults of its fields that have
one (values, or the callables of default_factory fields), in field order.
"""

from dataclasses import FrozenInstanceError

from kernelscope.records import FACTORY as _FACTORY

_object_setattr = object.__setattr__
'''


def all_record_classes() -> list:
    """Import every module of the package, then every class record made, in definition order."""
    import kernelscope

    for module in pkgutil.walk_packages(kernelscope.__path__, "kernelscope."):
        if module.name.endswith("__main__") or module.name == "kernelscope._record_methods":
            continue
        importlib.import_module(module.name)
    return list(records.REGISTERED)


def module_source(registered) -> str:
    parts = [HEADER]
    entries = []
    for cls, frozen, slots, own_doc in sorted(registered, key=lambda r: records.qualified_name(r[0])):
        shape = _shape_of_made(cls, frozen, slots)
        function = "_" + re.sub(r"\W", "_", records.qualified_name(cls))
        parts.append(_factory_source(function, shape))
        doc = None if own_doc else cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")
        entries.append(f"    {records.qualified_name(cls)!r}: (\n        {shape!r},\n        {function},\n"
                       f"        {doc!r}),\n")
    parts.append("\nCLASSES = {\n" + "".join(entries) + "}\n")
    return "\n\n".join(parts)


def _shape_of_made(cls, frozen: bool, slots: bool):
    """records.class_shape of a class as it was declared, read back from the dataclass made of it
    (the class itself now holds the methods, which class_shape turns away)."""
    fields = tuple((f.name, records.default_kind(f), f.repr, f.compare) for f in dataclasses.fields(cls))
    return frozen, slots, "__post_init__" in cls.__dict__, fields


def _factory_source(function: str, shape) -> str:
    frozen, _slots, post_init, fields = shape
    with_defaults = [name for name, kind, _, _ in fields if kind != records.NO_DEFAULT]
    lines = [f"def {function}(cls, defaults):"]
    if with_defaults:
        names = "".join(f"_dflt_{name}, " for name in with_defaults)
        lines.append(f"    {names.rstrip(', ')}{',' if len(with_defaults) == 1 else ''} = defaults")
    params = ["self"]
    for name, kind, _, _ in fields:
        params.append(name if kind == records.NO_DEFAULT else
                      f"{name}=_dflt_{name}" if kind == records.DEFAULT else f"{name}=_FACTORY")
    lines.append("")
    lines.append(f"    def __init__({', '.join(params)}):")
    values = [(name, f"_dflt_{name}() if {name} is _FACTORY else {name}" if kind == records.DEFAULT_FACTORY else name)
              for name, kind, _, _ in fields]
    if frozen and values:
        # a frozen class's own __setattr__ refuses, so its fields go past it: as one dict, which
        # costs about as much as two object.__setattr__ calls (a finding's nine took most of its cost)
        items = ", ".join(f"{name!r}: {value}" for name, value in values)
        body = [f"_object_setattr(self, '__dict__', {{{items}}})"]
    else:
        body = [f"self.{name} = {value}" for name, value in values]
    if post_init:
        body.append("self.__post_init__()")
    lines.extend(f"        {line}" for line in body or ["pass"])
    shown = [name for name, _, show, _ in fields if show]
    text = ", ".join(f"{name}={{self.{name}!r}}" for name in shown)
    lines.append("")
    lines.append("    def __repr__(self):")
    lines.append(f'        return self.__class__.__qualname__ + f"({text})"')
    compared = [name for name, _, _, compare in fields if compare]
    mine = _tuple(f"self.{name}" for name in compared)
    theirs = _tuple(f"other.{name}" for name in compared)
    lines.append("")
    lines.append("    def __eq__(self, other):")
    lines.append("        if other.__class__ is self.__class__:")
    lines.append(f"            return {mine} == {theirs}")
    lines.append("        return NotImplemented")
    methods = ["__init__", "__repr__", "__eq__"]
    if frozen:
        names = _tuple(repr(name) for name, *_ in fields)
        lines.append("")
        lines.append("    def __setattr__(self, name, value):")
        lines.append(f"        if type(self) is cls or name in {names}:")
        lines.append('            raise FrozenInstanceError(f"cannot assign to field {name!r}")')
        lines.append("        super(cls, self).__setattr__(name, value)")
        lines.append("")
        lines.append("    def __delattr__(self, name):")
        lines.append(f"        if type(self) is cls or name in {names}:")
        lines.append('            raise FrozenInstanceError(f"cannot delete field {name!r}")')
        lines.append("        super(cls, self).__delattr__(name)")
        lines.append("")
        lines.append("    def __hash__(self):")
        lines.append(f"        return hash({mine})")
        methods += ["__setattr__", "__delattr__", "__hash__"]
    lines.append("")
    lines.append("    return {" + ", ".join(f"{name!r}: {name}" for name in methods) + "}")
    return "\n".join(lines) + "\n"


def _tuple(items) -> str:
    """A tuple display of the given expressions' texts, one-element tuples included: (a,) or (a, b,)."""
    return "(" + "".join(f"{item}, " for item in items).rstrip(" ") + ")"
