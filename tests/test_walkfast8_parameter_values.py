"""A file's kernels start a parameter they share (same name, type name and star) with one Value
(parse._parameter_values): Values and Pointers never change once built. Shared or not, every
parameter must start the same, on every kernel of every CUDA file of the project, per parameter and in
the whole parsed model, and a table keyed too loosely would be caught."""

import pytest

from kernelscope.frontend import parse as front
from kernelscope.frontend.body import Value
from test_walker_fast_paths import CUDA_FILES, digests
from test_walkfast7_parameters import SOURCE, _parse_all


def _value_fields(value: Value) -> tuple:
    pointer = value.pointer
    return (value.expr, value.ctype, value.dims, value.location,
            None if pointer is None else (pointer.base, pointer.space, pointer.offset, pointer.pointee, pointer.dims))


@pytest.fixture
def compared(monkeypatch):
    """Each parameter's Value from the file's table and afresh, both kept."""
    pairs = []
    value_of = front._param_value

    def checked_value(record, known=None):
        kept = value_of(record, known)
        pairs.append((_value_fields(kept), _value_fields(value_of(record))))
        return kept

    monkeypatch.setattr(front, "_param_value", checked_value)
    return pairs


def test_every_project_parameter_starts_as_afresh(compared):
    _parse_all(CUDA_FILES)
    front.parse_file(SOURCE, "repeats.cu")
    assert len(compared) > 1000
    assert [pair for pair in compared if pair[0] != pair[1]] == []


def test_repeats_share_one_value_within_a_file_only():
    unit = front.FileUnit(front.preprocess("", None, "sm_90"), "")
    other = front.FileUnit(front.preprocess("", None, "sm_90"), "")
    assert unit.parameter_values == {} and front._parameter_values(unit) is not front._parameter_values(other)
    known = front._parameter_values(unit)
    record = front.Param(name="x", type_name="float", is_pointer=True, elem_bytes=4, is_const=False,
                         is_restrict=False, line=1)
    assert front._param_value(record, known) is front._param_value(record, known)
    other = front.Param(name="x", type_name="double", is_pointer=True, elem_bytes=8, is_const=False,
                        is_restrict=False, line=1)
    assert front._param_value(other, known).pointer.pointee == "double"


def _unshared(patched):
    """The general path: each kernel builds its parameters' Values."""
    patched.setattr(front, "_parameter_values", lambda unit: {})


def test_models_are_those_of_unshared_values(monkeypatch):
    assert digests(monkeypatch, CUDA_FILES, general_path=_unshared) == []


def test_a_table_keyed_by_name_alone_is_caught(monkeypatch, tmp_path):
    """Keyed by the parameter's name alone, kernel c's `double* x` starts as kernel a's `float* x`."""
    source = tmp_path / "repeats.cu"
    source.write_text(SOURCE)
    value_of = front._param_value

    def by_name_only(record, known=None):
        if known is None:
            return value_of(record)
        if record.name not in known:
            known[record.name] = value_of(record)
        return known[record.name]

    def broken(patched):
        patched.setattr(front, "_param_value", by_name_only)

    assert digests(monkeypatch, [source], general_path=_unshared, fast_patch=broken) == ["repeats.cu"]
