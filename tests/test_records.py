"""kernelscope.records: classes with written-out methods behave as dataclasses.dataclass makes them.

Each class `record` makes is compared with a dataclass of the same fields and options made by the
standard library: signature, docstring, repr, equality, hashing, frozen errors, fresh default
factories, replace(), match args and slots. The written file must be what the writer produces now
(else classes silently fall back to compiling their methods at import).
"""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

from kernelscope import _record_methods, records
from kernelscope.record_source import all_record_classes, module_source

ROOT = Path(__file__).resolve().parent.parent
CLASSES = all_record_classes()


def test_written_methods_file_is_up_to_date():
    written = (ROOT / "kernelscope" / "_record_methods.py").read_text()
    assert written == module_source(CLASSES), "run: python tools/write_record_methods.py"


def test_the_analysis_start_up_classes_are_records():
    names = {records.qualified_name(cls) for cls, *_ in CLASSES}
    for expected in ("kernelscope.model.Kernel", "kernelscope.model.Access", "kernelscope.analyze.KernelResult",
                     "kernelscope.analyses.sync.SyncResult", "kernelscope.profiles_db.ArchProfile",
                     "kernelscope.lint.config.Settings"):
        assert expected in names


@pytest.mark.parametrize("entry", CLASSES, ids=lambda entry: records.qualified_name(entry[0]))
def test_record_uses_the_written_methods(entry):
    cls = entry[0]
    assert cls.__init__.__code__.co_filename == _record_methods.__file__
    assert cls.__eq__.__code__.co_filename == _record_methods.__file__


def _twin(cls, frozen: bool, slots: bool):
    """The class dataclasses.dataclass makes of the same fields and options."""
    specs = []
    for f in dataclasses.fields(cls):
        extra = {"repr": f.repr, "compare": f.compare}
        if f.default is not dataclasses.MISSING:
            extra["default"] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            extra["default_factory"] = f.default_factory
        specs.append((f.name, f.type, dataclasses.field(**extra)))
    namespace = {"__post_init__": cls.__post_init__} if "__post_init__" in cls.__dict__ else {}
    twin = dataclasses.make_dataclass(cls.__name__, specs, frozen=frozen, slots=slots, namespace=namespace)
    twin.__qualname__ = cls.__qualname__
    return twin


def _outcome(function, *args):
    """function(*args), or the type of what it raised (hashing a list field raises in both)."""
    try:
        return function(*args)
    except Exception as exc:  # noqa: BLE001 - the kind of failure is what is compared
        return type(exc)


def _required_values(cls, tag: str) -> dict:
    return {f.name: f"{tag}-{f.name}" for f in dataclasses.fields(cls)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}


@pytest.mark.parametrize("entry", CLASSES, ids=lambda entry: records.qualified_name(entry[0]))
def test_record_behaves_as_the_dataclass(entry):
    _check_behaves_as_dataclass(*entry)


def _check_behaves_as_dataclass(cls, frozen, slots, own_doc):
    twin = _twin(cls, frozen, slots)
    assert str(inspect.signature(cls)) == str(inspect.signature(twin))
    if not own_doc:
        assert cls.__doc__ == twin.__doc__
    assert cls.__match_args__ == twin.__match_args__
    assert repr(cls.__dataclass_params__) == repr(twin.__dataclass_params__)
    assert [f.name for f in dataclasses.fields(cls)] == [f.name for f in dataclasses.fields(twin)]
    if slots:
        assert cls.__slots__ == twin.__slots__ and not hasattr(cls(**_required_values(cls, "a")), "__dict__")

    values = _required_values(cls, "a")
    mine, theirs = cls(**values), twin(**values)
    assert repr(mine) == repr(theirs)
    if not slots:   # (every field set, those neither shown nor compared included; a frozen one's in one dict)
        assert vars(mine) == vars(theirs)
    assert mine == cls(**values) and not (mine != cls(**values))
    assert (mine == object()) is False and mine.__eq__(theirs) is NotImplemented
    for f in dataclasses.fields(cls):
        changed = cls(**{**values, f.name: "changed"})
        assert (changed == mine) is (not f.compare), f.name
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(mine, f.name) == getattr(theirs, f.name)
            assert getattr(mine, f.name) is not getattr(cls(**values), f.name), "a factory's value is shared"
    if frozen:
        assert _outcome(hash, mine) == _outcome(hash, theirs) == _outcome(hash, cls(**values))
        name = dataclasses.fields(cls)[0].name if dataclasses.fields(cls) else "other"
        for attempt in (lambda obj: setattr(obj, name, 1), lambda obj: delattr(obj, name),
                        lambda obj: setattr(obj, "other", 1)):
            with pytest.raises(dataclasses.FrozenInstanceError) as ours:
                attempt(mine)
            with pytest.raises(dataclasses.FrozenInstanceError) as stdlib:
                attempt(theirs)
            assert str(ours.value) == str(stdlib.value)
    else:
        assert cls.__hash__ is None and twin.__hash__ is None
        for f in dataclasses.fields(cls)[:1]:
            setattr(mine, f.name, "set")
            assert getattr(mine, f.name) == "set"
    copy = dataclasses.replace(mine)
    assert copy == mine and copy is not mine


def test_a_class_the_file_does_not_describe_is_made_by_dataclasses():
    @records.record(frozen=True)
    class NotWritten:
        a: int
        b: list = dataclasses.field(default_factory=list)

    records.REGISTERED.pop()
    assert NotWritten.__init__.__code__.co_filename != _record_methods.__file__
    assert NotWritten(1) == NotWritten(1) and NotWritten(1).b == []
    with pytest.raises(dataclasses.FrozenInstanceError):
        NotWritten(1).a = 2


def test_a_stale_entry_is_not_used(monkeypatch):
    """An entry written for other fields (here: one field fewer) must not give the class its methods."""
    key = f"{__name__}.Changed"
    shape = (False, False, False, (("a", records.NO_DEFAULT, True, True),))
    monkeypatch.setitem(_record_methods.CLASSES, key, (shape, _record_methods.CLASSES[
        "kernelscope.model.Position"][1], None))

    def define():
        class Changed:
            a: int
            b: int

        Changed.__module__, Changed.__qualname__ = __name__, "Changed"
        made = records.record(Changed)
        records.REGISTERED.pop()
        return made

    made = define()
    assert made.__init__.__code__.co_filename != _record_methods.__file__
    assert made(1, 2).b == 2


def test_a_class_writing_its_own_eq_keeps_it():
    @records.record
    class OwnEq:
        a: int

        def __eq__(self, other):
            return True

    records.REGISTERED.pop()
    assert OwnEq(1) == OwnEq(2)
    assert repr(OwnEq(3)).endswith("OwnEq(a=3)")


def _written_for(declare, frozen=False, slots=False):
    """A class declared by `declare()`, completed with the methods module_source writes for it (it is
    not in the package's file, so record first makes it with dataclasses)."""
    made = records.record(declare(), frozen=frozen, slots=slots)
    entry = records.REGISTERED.pop()
    namespace: dict = {}
    exec(compile(module_source([entry]), "<written>", "exec"), namespace)
    (shape, factory, doc), = namespace["CLASSES"].values()
    fresh = declare()
    assert records.class_shape(fresh, frozen, slots) == shape
    if doc is not None:
        fresh.__doc__ = doc
    plain = dataclasses.dataclass(fresh, init=False, repr=False, eq=False, slots=slots)
    return records._complete(plain, factory, frozen), made


def _declare_flags():
    class Flags:
        a: int
        hidden: int = dataclasses.field(default=0, repr=False)
        ignored: int = dataclasses.field(default=0, compare=False)
        items: list = dataclasses.field(default_factory=list)
        both: dict = dataclasses.field(default_factory=dict, compare=False, repr=False)

    return Flags


def _declare_post_init():
    class WithPostInit:
        a: int
        b: int = 2

        def __post_init__(self):
            self.total = (self.a, self.b)

    return WithPostInit


def _declare_empty():
    class Empty:
        pass

    return Empty


@pytest.mark.parametrize("declare", [_declare_flags, _declare_post_init, _declare_empty])
@pytest.mark.parametrize("frozen, slots", [(False, False), (True, False), (False, True)])
def test_written_methods_of_field_flags_and_options(declare, frozen, slots):
    """Flags no class of the package uses today (repr=False, compare=False fields, __post_init__, no
    fields) are written right too: the writer's output, executed, behaves as dataclasses."""
    if (frozen or slots) and declare is _declare_post_init:
        pytest.skip("this __post_init__ sets an attribute: not on a frozen or slotted class")
    written, stdlib_made = _written_for(declare, frozen, slots)
    assert written.__init__.__code__.co_filename == "<written>"
    _check_behaves_as_dataclass(written, frozen, slots, own_doc=False)
    if declare is _declare_flags:
        assert "hidden" not in repr(written(1)) and written(1, ignored=5) == written(1, ignored=7)
    if declare is _declare_post_init:
        assert written(1).total == (1, 2) == stdlib_made(1).total


def test_a_frozen_slotted_class_is_left_to_dataclasses():
    """dataclasses gives such a class pickling support that record does not write."""
    import pickle

    @records.record(frozen=True, slots=True)
    class FrozenSlots:
        a: int

    records.REGISTERED.pop()
    assert records.class_shape(FrozenSlots, True, True) is None
    assert hasattr(FrozenSlots, "__getstate__")
    FrozenSlots.__qualname__ = FrozenSlots.__name__
    globals()["FrozenSlots"] = FrozenSlots
    try:
        assert pickle.loads(pickle.dumps(FrozenSlots(3))) == FrozenSlots(3)
    finally:
        del globals()["FrozenSlots"]
