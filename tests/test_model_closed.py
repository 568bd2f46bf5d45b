"""The kernel model is closed: every record declares its fields, so a stage cannot hang an
undeclared attribute on a record (and a reader never needs a getattr default)."""

import dataclasses
import inspect

import pytest

from kernelscope import model
from kernelscope.frontend import parse_file

RECORDS = [cls for _, cls in inspect.getmembers(model, inspect.isclass)
           if dataclasses.is_dataclass(cls) and cls.__module__ == model.__name__]


@pytest.mark.parametrize("record", RECORDS, ids=lambda cls: cls.__name__)
def test_every_record_is_slotted_or_frozen(record):
    frozen = record.__dataclass_params__.frozen
    assert frozen or "__slots__" in vars(record), record.__name__


def test_an_undeclared_attribute_cannot_be_set_on_a_record():
    loop = model.Loop(kind="for", line=1)
    with pytest.raises(AttributeError):
        loop.updates = {}


def test_the_front_end_fills_only_declared_fields():
    # slotted records would raise on any other assignment; here the fields the walker sets are read back
    text = """
    __global__ void k(const float* __restrict__ a, float* b, int n) {
        for (int i = threadIdx.x; i < n; i += blockDim.x) b[i] = __ldg(&a[i]) * 2.0f;
    }
    void host(float* a, float* b, int n) { k<<<n / 256, 256>>>(a, b, n); }
    """
    parsed = parse_file(text, "k.cu")
    [kernel] = parsed.kernels
    assert kernel.notes == [] and kernel.loops[0].step_op == "+"
    assert {a.op: a.cached for a in kernel.accesses} == {"load": "__ldg", "store": None}
    assert [a.seq for a in kernel.accesses] == sorted(a.seq for a in kernel.accesses) and kernel.accesses[0].seq > 0
    assert kernel.launches[0].block_exprs is not None
