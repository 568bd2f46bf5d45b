"""rules.check_kernel skips a synchronization check whose declared `reads_only` field (the one
SyncResult field whose entries are all it reports from) is empty, or when the kernel has no
SyncResult, without starting its generator: on every example, test and corpus kernel it finds what running every check finds, and
each declared field is the one its check reads."""

import dataclasses

import pytest

from kernelscope import rules
from kernelscope.analyze import analyze_source
from project_sources import PROJECT_CUDA_FILES

FILES = PROJECT_CUDA_FILES
SYNC_RULES = [rule for rule in rules.all_rules() if rule.reads_only is not None and rule.reads_only[0] == "sync"]


@pytest.fixture(scope="module")
def kernels():
    return [kernel for path in FILES
            for kernel in analyze_source(path.read_text(), str(path), registers="estimate").kernels]


def _found(facts) -> list:
    return [(d.to_json(), d.related) for d in rules.check_kernel(facts)]


def test_the_synchronization_checks_declare_their_fields():
    assert {rule.code for rule in SYNC_RULES} == {rule.code for rule in rules.all_rules()
                                                  if rule.code.startswith("KS2") and rule.has_check}


def test_check_kernel_finds_what_every_check_finds(kernels, monkeypatch):
    fast = [_found(facts) for facts in kernels]
    monkeypatch.setattr(rules, "SKIP_EMPTY_INPUTS", False)
    assert fast == [_found(facts) for facts in kernels]
    # every skipped check has findings somewhere, so a wrong field would show above
    codes = {d["rule"] for found in fast for d, _ in found}
    assert {rule.code for rule in SYNC_RULES} <= codes


def test_without_a_sync_result_the_checks_find_nothing_either(kernels, monkeypatch):
    facts = [dataclasses.replace(k, sync=None) for k in kernels if k.sync is not None][:80]
    fast = [_found(f) for f in facts]
    monkeypatch.setattr(rules, "SKIP_EMPTY_INPUTS", False)
    assert fast == [_found(f) for f in facts]


@pytest.mark.parametrize("rule", SYNC_RULES, ids=lambda rule: rule.code)
def test_each_check_reports_from_its_declared_field_alone(kernels, rule):
    reporting = [facts for facts in kernels if list(rule.check(facts))]
    assert reporting
    for facts in reporting:
        emptied = dataclasses.replace(facts, sync=dataclasses.replace(facts.sync, **{rule.reads_only[1]: ()}))
        assert list(rule.check(emptied)) == []
