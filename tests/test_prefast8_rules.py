"""prefast8: the kernel checks' fast paths against the general ones.

- KS402 and KS403 read parameters and accesses in plain loops (KS403 in one pass over the accesses);
  here they are compared with their earlier generator-expression versions, kept below as references,
  on every example, test and corpus kernel and on made-up parameter and access lists where the two
  could part (arrays both read and written, __ldg reads, reads in and out of loops, const or
  __restrict__ alone).
- check_kernel skips a check whose `reads_only` (part, field) is empty without starting it: each
  declared field must be the only thing its check reports from.
"""

import dataclasses
import itertools
from types import SimpleNamespace

import pytest

from kernelscope import rules
from kernelscope.analyze import analyze_source
from kernelscope.rules.performance import MissingRestrict, UncachedReadonly
from project_sources import PROJECT_CUDA_FILES

FILES = PROJECT_CUDA_FILES
GATED = [rule for rule in rules.all_rules() if rule.reads_only is not None and rule.reads_only[0] != "sync"]


@pytest.fixture(scope="module")
def kernels():
    return [kernel for path in FILES
            for kernel in analyze_source(path.read_text(), str(path), registers="estimate").kernels]


def reference_missing_restrict(cls, facts):
    kernel = facts.kernel
    pointers = [p for p in kernel.params if p.is_pointer]
    if len(pointers) < 2 or any(p.is_restrict for p in pointers) or \
            not any(a.space == "global" and a.op != "load" for a in kernel.accesses):
        return
    yield cls.finding(facts.path, kernel.line, kernel.column,
                      f"pointer parameters of {kernel.name} are not __restrict__; if they never alias, "
                      "mark them so the compiler can cache loads", kernel.name)


def reference_uncached_readonly(cls, facts):
    kernel = facts.kernel
    by_array: dict = {}
    for access in kernel.accesses:
        if access.space == "global":
            by_array.setdefault(access.array, []).append(access)
    for param in kernel.params:
        if not param.is_pointer or (param.is_const and param.is_restrict):
            continue
        accesses = by_array.get(param.name)
        if not accesses or any(a.op != "load" or a.cached for a in accesses):
            continue
        reused = [a for a in accesses if a.context.loops]
        if reused:
            yield cls.finding(facts.path, reused[0].line, reused[0].column,
                              f"`{param.name}` is only read, and read again in a loop, but is not "
                              "`const ... __restrict__` (nor loaded with __ldg): it misses the read-only cache",
                              kernel.name)


PAIRS = [(MissingRestrict, reference_missing_restrict), (UncachedReadonly, reference_uncached_readonly)]


def _json(found) -> list:
    return [(d.to_json(), d.related) for d in found]


@pytest.mark.parametrize("rule, reference", PAIRS, ids=lambda x: getattr(x, "code", ""))
def test_performance_checks_match_their_references_on_every_kernel(kernels, rule, reference):
    fast = [_json(rule.check(facts)) for facts in kernels]
    assert fast == [_json(reference(rule, facts)) for facts in kernels]
    assert sum(map(bool, fast)) >= 5        # the comparison saw findings, not only empty lists


def _param(name, pointer=True, const=False, restrict=False):
    return SimpleNamespace(name=name, is_pointer=pointer, is_const=const, is_restrict=restrict)


def _access(array, op="load", space="global", cached=False, in_loop=False, line=1):
    return SimpleNamespace(array=array, op=op, space=space, cached=cached, line=line, column=line + 1,
                           context=SimpleNamespace(loops=("loop",) if in_loop else ()))


def _made_up_kernels():
    params = [_param("a"), _param("b", const=True), _param("c", restrict=True), _param("d", const=True, restrict=True),
              _param("n", pointer=False), _param("e")]
    accesses = [_access("a", in_loop=True, line=3), _access("a", line=4), _access("a", op="store", line=5),
                _access("b", line=6), _access("b", in_loop=True, line=7), _access("b", in_loop=True, line=8),
                _access("c", in_loop=True, line=9), _access("d", in_loop=True, line=10),
                _access("e", cached=True, in_loop=True, line=11), _access("e", in_loop=True, line=12),
                _access("n", in_loop=True, line=13), _access("a", space="shared", op="store", line=14),
                _access("e", op="atomic", line=15)]
    for n_params in (0, 1, 2, 3, 6):
        for picked in itertools.combinations(range(len(accesses)), 3):
            for order in (params[:n_params], params[:n_params][::-1]):
                kernel = SimpleNamespace(name="k", line=1, column=1, params=order,
                                         accesses=[accesses[i] for i in picked])
                yield SimpleNamespace(kernel=kernel, path="made_up.cu")


@pytest.mark.parametrize("rule, reference", PAIRS, ids=lambda x: getattr(x, "code", ""))
def test_performance_checks_match_their_references_on_made_up_kernels(rule, reference):
    found = 0
    for facts in _made_up_kernels():
        fast = _json(rule.check(facts))
        assert fast == _json(reference(rule, facts))
        found += bool(fast)
    assert found > 20


def test_check_kernel_finds_what_every_check_finds(kernels, monkeypatch):
    fast = [_json(rules.check_kernel(facts)) for facts in kernels]
    monkeypatch.setattr(rules, "SKIP_EMPTY_INPUTS", False)
    assert fast == [_json(rules.check_kernel(facts)) for facts in kernels]
    codes = {d["rule"] for found in fast for d, _ in found}
    assert {rule.code for rule in GATED} <= codes       # a wrong field would show above


def test_check_kernel_with_enabled_skips_and_keeps_the_order(kernels):
    some = lambda code: code not in ("KS111", "KS402", "KS205")     # noqa: E731
    for facts in kernels:
        assert _json(rules.check_kernel(facts, some)) == [
            f for f in _json(rules.check_kernel(facts)) if some(f[0]["rule"])]


@pytest.mark.parametrize("rule", GATED, ids=lambda rule: rule.code)
def test_each_gated_check_reports_from_its_declared_field_alone(kernels, rule):
    part, field = rule.reads_only
    reporting = [facts for facts in kernels if list(rule.check(facts))]
    assert reporting
    for facts in reporting:
        emptied_part = dataclasses.replace(getattr(facts, part), **{field: type(getattr(getattr(facts, part), field))()})
        assert list(rule.check(dataclasses.replace(facts, **{part: emptied_part}))) == []


def test_a_rule_cannot_name_an_unknown_part():
    with pytest.raises(TypeError, match="reads_only"):
        class Bad(rules.Rule):      # noqa: F841
            """## What it does\nx\n## Why is this bad?\nx\n## Example\nx\n## Use instead\nx"""
            code, name, severity = "KS199", "bad-rule", "info"
            reads_only = ("launches", "x")
