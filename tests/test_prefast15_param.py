"""parse._param makes each Param by position (prefast15): the kernels' parameters must be those
the keyword construction gave, on every CUDA file of the project, and the order _param passes the
values in must be Param's field order."""

import dataclasses

import pytest

from kernelscope.errors import InputError
from kernelscope.frontend import parse as front
from kernelscope.model import Param
from test_walked_captures import CUDA_FILES


def _keyword_param(unit, shape):
    """_param as it was: every field by keyword."""
    if shape is None:
        return None
    name, type_name, is_pointer, is_const, is_restrict, line = shape
    return Param(
        name=name,
        type_name=type_name,
        is_pointer=is_pointer,
        elem_bytes=unit.types.size_of(unit.types.resolve(type_name)) if is_pointer else unit.types.size_of(type_name),
        is_const=is_const,
        is_restrict=is_restrict,
        line=line,
    )


def test_param_fields_are_in_the_order_param_passes_them():
    assert tuple(f.name for f in dataclasses.fields(Param)) == front._PARAM_FIELDS


def _kernel_params(text: str, path: str) -> list:
    try:
        model = front.parse_file(text, path)
    except InputError:
        return []
    return [(kernel.name, kernel.params) for kernel in model.kernels]


def test_same_params_as_keyword_construction_on_the_cuda_files(monkeypatch):
    compared = distinct = 0
    for path in CUDA_FILES:
        text = path.read_text(encoding="latin-1")
        positional = _kernel_params(text, str(path))
        with monkeypatch.context() as patch:
            patch.setattr(front, "_param", _keyword_param)
            keyword = _kernel_params(text, str(path))
        assert positional == keyword, path
        for _, params in positional:
            compared += len(params)
            # (fields that differ from one another, so that a swapped pair would show)
            distinct += sum(p.is_const != p.is_restrict or p.is_pointer != p.is_const for p in params)
    assert compared > 1000 and distinct > 100
