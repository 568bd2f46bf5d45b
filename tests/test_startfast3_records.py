"""kernelscope.records._plain_dataclass: the dataclass a record starts from is declared to
dataclasses without its text annotations (which dataclasses would search for ClassVar, InitVar and
KW_ONLY); it must come out as dataclasses.dataclass makes it, the annotations and the fields' types
included, and without those searches."""

from __future__ import annotations

import dataclasses

import pytest

from kernelscope import records
from kernelscope.record_source import all_record_classes

CLASSES = [cls for cls, *_ in all_record_classes()]


def make(slots: bool):
    """Two classes of the same body, with text annotations (this module postpones them)."""

    def body():
        class Sample:
            """A sample."""
            name: str
            count: int = 3
            tags: list = dataclasses.field(default_factory=list)
            hidden: dict = dataclasses.field(default=None, repr=False, compare=False)

            def total(self) -> int:
                return self.count

        return Sample

    return body(), body()


def described(cls) -> tuple:
    return ([(f.name, f.type, f.default, f.default_factory, f.repr, f.compare, f.init, f.kw_only, f._field_type)
             for f in dataclasses.fields(cls)],
            dict(cls.__annotations__), cls.__match_args__, repr(cls.__dataclass_params__),
            cls.__dict__.get("__slots__"), cls.count if not cls.__dict__.get("__slots__") else None)


@pytest.mark.parametrize("slots", [False, True], ids=["plain", "slots"])
def test_the_plain_dataclass_is_the_one_dataclasses_makes(slots):
    ours, theirs = make(slots)
    made = records._plain_dataclass(ours, slots)
    expected = dataclasses.dataclass(theirs, init=False, repr=False, eq=False, slots=slots)
    assert described(made) == described(expected)
    assert made.__annotations__ == {"name": "str", "count": "int", "tags": "list", "hidden": "dict"}


def test_no_annotation_is_searched_for_classvar_initvar_or_kw_only(monkeypatch):
    searched = []
    real = dataclasses._is_type
    monkeypatch.setattr(dataclasses, "_is_type", lambda *args: searched.append(args[0]) or real(*args))
    ours, theirs = make(False)
    records._plain_dataclass(ours, False)
    assert searched == []
    dataclasses.dataclass(theirs, init=False, repr=False, eq=False)
    assert len(searched) == 3 * 4          # what the shortcut spares: three searches per field


@pytest.mark.parametrize("cls", CLASSES, ids=records.qualified_name)
def test_every_record_keeps_its_own_annotations_as_its_fields_types(cls):
    annotations = cls.__annotations__
    assert all(isinstance(text, str) for text in annotations.values())
    assert {f.name: f.type for f in dataclasses.fields(cls)} == annotations
