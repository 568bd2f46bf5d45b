"""ResourceUsage.to_json, written out field by field, is the comprehension over dataclasses.fields()
it replaced: same keys in the same order, same values, on the estimates of the project's kernels and
on ptxas usages with instantiations."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kernelscope.analyze import analyze_path
from kernelscope.resources import ResourceUsage

ROOT = Path(__file__).parent.parent
FILES = sorted(ROOT.glob("examples/*.cu")) + sorted(ROOT.glob("tests/kernels/realworld/*.cu"))[::4]


def general(usage: ResourceUsage) -> dict:
    """What to_json was: every field but the instantiations, then theirs."""
    out = {f.name: getattr(usage, f.name) for f in dataclasses.fields(usage) if f.name != "instantiations"}
    if usage.instantiations:
        out["instantiations"] = {name: general(inner) for name, inner in usage.instantiations}
    return out


def same(a: dict, b: dict) -> bool:
    return list(a) == list(b) and a == b and all(type(a[k]) is type(b[k]) for k in a)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_estimates_of_the_projects_kernels(path):
    usages = [k.resources for k in analyze_path(path, registers="estimate").kernels]
    assert usages and all(same(u.to_json(), general(u)) for u in usages)


def test_a_template_kernels_ptxas_usage_with_instantiations():
    inner = ResourceUsage(40, 8, 4, 16, 1024, 12, 2, "ptxas", "_Z6kernelILi256EEvPf", "kernel<256>")
    usage = ResourceUsage(48, 0, 0, 0, 2048, 0, 1, "ptxas", "_Z6kernelILi128EEvPf", "kernel<128>",
                          instantiations=(("kernel<256>", inner), ("kernel<128>", inner)))
    assert same(usage.to_json(), general(usage))
    assert same(usage.to_json()["instantiations"]["kernel<256>"], general(inner))


def test_every_field_but_the_instantiations_is_written():
    # a field added to ResourceUsage and not to to_json would fail here
    names = [f.name for f in dataclasses.fields(ResourceUsage) if f.name != "instantiations"]
    assert list(ResourceUsage(1).to_json()) == names
