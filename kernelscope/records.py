"""Dataclasses whose methods are not compiled at import.

`dataclasses.dataclass` writes a class's __init__, __repr__ and __eq__ (and, when frozen, __setattr__,
__delattr__ and __hash__) as source text and compiles it while the class is being defined. For the
classes a `kernelscope analyze` process defines before it reads a file (56 are records now), that was
about 210 million instructions, a quarter of the whole run on a one-kernel file.

`record` makes the same classes: a dataclass (fields(), replace(), asdict() and is_dataclass() work as
ever) whose methods come from kernelscope/_record_methods.py, the same methods written out as plain
source by tools/write_record_methods.py, so that Python caches them as bytecode like any module.
A class that file does not describe as it is now (a field added, renamed, given or stripped of a
default, an option changed) is made by `dataclasses.dataclass` instead: still right, only slower to
import, and tests/test_records.py fails until the file is written again.

What `record` supports is what this package uses: fields with or without a default or a
default_factory, `repr=False` and `compare=False` fields, `frozen=True` or `slots=True`, and a
`__post_init__` without arguments. Anything else (ClassVar or InitVar fields, a class that writes
one of the generated methods itself, keyword-only fields, base classes, frozen and slotted at once)
goes to `dataclasses.dataclass`. The methods are the ones Python 3.11's dataclasses write (equality
compares tuples of the fields), but for a frozen class's __init__, which sets the instance's __dict__
in one call instead of one object.__setattr__ per field (the same instance, made in about half the
time for nine fields; the analysis makes tens of thousands of frozen records a file).

`__dataclass_params__` is corrected to the options the class has (dataclasses records those it was
asked for: no methods, not frozen), so that introspection sees a frozen, compared class as one.
"""

from __future__ import annotations

import dataclasses
from reprlib import recursive_repr

# Every class `record` has made, in definition order, with whether its docstring was its own (the
# writer of _record_methods.py reads them).
REGISTERED: list = []

# Methods `dataclasses` would generate; a class that defines one itself is left to `dataclasses`.
_GENERATED = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")


class _FactorySentinel:
    """The default of a parameter whose field has a default_factory (shown as dataclasses shows it)."""

    def __repr__(self) -> str:
        return "<factory>"


FACTORY = _FactorySentinel()

# kinds of default in a shape
NO_DEFAULT, DEFAULT, DEFAULT_FACTORY = 0, 1, 2


def default_kind(field: dataclasses.Field) -> int:
    """NO_DEFAULT, DEFAULT or DEFAULT_FACTORY: what a field declares (or a made dataclass's field has)."""
    if field.default is not dataclasses.MISSING:
        return DEFAULT
    return DEFAULT_FACTORY if field.default_factory is not dataclasses.MISSING else NO_DEFAULT


def record(cls=None, /, *, frozen: bool = False, slots: bool = False):
    """`dataclasses.dataclass(cls, frozen=frozen, slots=slots)`, with the methods read from
    _record_methods.py when it describes the class as it is."""

    def wrap(cls):
        own_doc = cls.__dict__.get("__doc__") is not None
        shape = class_shape(cls, frozen, slots)
        written = _written_methods(cls, shape)
        if written is None:
            made = dataclasses.dataclass(cls, frozen=frozen, slots=slots)
        else:
            factory, doc = written
            if not own_doc and doc is not None:
                cls.__doc__ = doc        # the text dataclasses would write, without inspect.signature
            made = _complete(_plain_dataclass(cls, slots), factory, frozen)
        REGISTERED.append((made, frozen, slots, own_doc))
        return made

    return wrap if cls is None else wrap(cls)


def class_shape(cls, frozen: bool, slots: bool):
    """What the written methods depend on: the options and, per field in order, its name, kind of
    default, repr and compare flags, and whether the class has a __post_init__; None for a class
    `record` leaves to dataclasses."""
    if cls.__bases__ != (object,) or any(name in cls.__dict__ for name in _GENERATED) or (frozen and slots):
        return None     # (a frozen slotted class also needs the pickling support dataclasses adds)
    fields = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
        if "ClassVar" in text or "InitVar" in text or "KW_ONLY" in text:
            return None
        value = cls.__dict__.get(name, dataclasses.MISSING)
        if isinstance(value, dataclasses.Field):
            if not value.init or value.kw_only is True or value.hash is not None or value.metadata:
                return None
            fields.append((name, default_kind(value), value.repr, value.compare))
        else:
            fields.append((name, NO_DEFAULT if value is dataclasses.MISSING else DEFAULT, True, True))
    return frozen, slots, "__post_init__" in cls.__dict__, tuple(fields)


def qualified_name(cls) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _written_methods(cls, shape):
    """(factory, docstring) from _record_methods.py for this class in this shape, or None."""
    if shape is None:
        return None
    from kernelscope import _record_methods as written

    entry = written.CLASSES.get(qualified_name(cls))
    if entry is None or entry[0] != shape:
        return None
    return entry[1], entry[2]


def _plain_dataclass(cls, slots: bool):
    """`dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=slots)` for a class whose
    shape `class_shape` has read. dataclasses reads each annotation written as text (this package's
    modules postpone their annotations) three times over, a regex match and a module lookup each,
    to see whether it names ClassVar, InitVar or KW_ONLY (10 million instructions for the classes a
    fresh `analyze` defines); class_shape has found none of them, so the fields are declared with a
    stand-in type, and take their own annotations back after."""
    annotations = cls.__dict__.get("__annotations__", {})
    cls.__annotations__ = dict.fromkeys(annotations, object)
    made = dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=slots)
    made.__annotations__ = annotations
    for field in dataclasses.fields(made):
        field.type = annotations[field.name]
    return made


def _complete(cls, factory, frozen: bool):
    """Give a plain dataclass the methods `factory` writes for it, as dataclasses would set them."""
    fields = dataclasses.fields(cls)
    defaults = [f.default if default_kind(f) == DEFAULT else f.default_factory
                for f in fields if default_kind(f) != NO_DEFAULT]
    methods = factory(cls, defaults)
    init = methods["__init__"]
    # what inspect.signature shows: the fields' annotations, as on a generated __init__
    init.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    methods["__repr__"] = recursive_repr()(methods["__repr__"])
    for name, method in methods.items():
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)
    if not frozen:
        cls.__hash__ = None          # compared by value and mutable: unhashable, as dataclasses makes it
    params = cls.__dataclass_params__
    params.init = params.repr = params.eq = True
    params.frozen = frozen
    return cls
