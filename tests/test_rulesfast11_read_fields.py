"""rulesfast11: check_kernel reads every field that rules read only (`Rule.reads_only`) in one
attrgetter call and tests a rule's by its index in that tuple (`rules.READ_FIELDS_AT_ONCE`); against
the part-by-part getattr path it must find the same on every example, test and corpus kernel, with
each such field emptied in turn (a wrong index shows there), and with rules turned off."""

import dataclasses

import pytest

from kernelscope import rules
from kernelscope.analyze import analyze_source
from project_sources import PROJECT_CUDA_FILES

READ_ONLY = sorted({rule.reads_only for rule in rules.all_rules() if rule.reads_only is not None})


@pytest.fixture(scope="module")
def kernels():
    return [kernel for path in PROJECT_CUDA_FILES
            for kernel in analyze_source(path.read_text(), str(path), registers="estimate").kernels]


def _found(facts, enabled=None) -> list:
    return [(d.to_json(), d.related) for d in rules.check_kernel(facts, enabled)]


def _emptied(facts, part: str, field: str):
    return dataclasses.replace(facts, **{part: dataclasses.replace(getattr(facts, part), **{field: ()})})


def _both_ways(facts_list, monkeypatch, enabled=None) -> tuple:
    at_once = [_found(facts, enabled) for facts in facts_list]
    monkeypatch.setattr(rules, "READ_FIELDS_AT_ONCE", False)
    part_by_part = [_found(facts, enabled) for facts in facts_list]
    monkeypatch.setattr(rules, "READ_FIELDS_AT_ONCE", True)
    return at_once, part_by_part


def test_the_fields_read_at_once_are_the_declared_ones():
    assert sorted(path.split(".") for path in rules._READ_PATHS) == [list(pair) for pair in READ_ONLY]
    assert len(READ_ONLY) > 5


def test_reading_at_once_finds_what_reading_part_by_part_finds(kernels, monkeypatch):
    at_once, part_by_part = _both_ways(kernels, monkeypatch)
    assert at_once == part_by_part
    assert sum(map(len, at_once)) > 100


@pytest.mark.parametrize("part, field", READ_ONLY, ids=lambda x: x)
def test_with_one_field_emptied(kernels, monkeypatch, part, field):
    having = [facts for facts in kernels if getattr(facts, part) is not None and getattr(getattr(facts, part), field)]
    assert having
    emptied = [_emptied(facts, part, field) for facts in having]
    at_once, part_by_part = _both_ways(emptied, monkeypatch)
    assert at_once == part_by_part
    # and the rules reading that field report nothing there any more
    codes = {rule.code for rule in rules.all_rules() if rule.reads_only == (part, field)}
    assert not {d["rule"] for found in at_once for d, _ in found} & codes


def test_with_rules_turned_off(kernels, monkeypatch):
    for off in ({"KS101", "KS202"}, {"KS111", "KS207", "KS104"}, {rule.code for rule in rules.all_rules()}):
        at_once, part_by_part = _both_ways(kernels, monkeypatch, enabled=lambda code: code not in off)
        assert at_once == part_by_part
        assert not {d["rule"] for found in at_once for d, _ in found} & off
