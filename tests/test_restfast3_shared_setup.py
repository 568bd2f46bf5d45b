"""Two shortcuts of the per-kernel set-up of the memory and intensity analyses, each compared with the
general path on the project's kernels:

- threads.shared_thread_env: one thread environment and signature per launch shape and bindings,
  shared by the kernels analysed with them, instead of thread_env and _signature per kernel;
- Lanes._lanes_within finds the kept values of a loop value's environment through its parent's
  (`_Kept.within`) instead of hashing the nested signature in _KEPT again, while _KEPT has dropped
  nothing and the values stay within their bound."""

import numpy as np
import pytest

from kernelscope.analyses import intensity, memory, threads, trips
from kernelscope.analyses.threads import BlockShape, active_slots, shared_thread_env, thread_env
from kernelscope.analyses.trips import ExecWeights
from kernelscope import analyze as analyze_module
from kernelscope.analyze import analyze_kernel, Options
from kernelscope.frontend.parse import parse_file
from project_sources import PROJECT_CUDA_FILES

ALL_FILES = PROJECT_CUDA_FILES
FILES = ALL_FILES[:40]
SETUPS = [(BlockShape(256), None, {}), (BlockShape(16, 16), (8, 8, 1), {"n": 1000}), (BlockShape(100), None, {"n": 64})]


def _kernels(files=FILES):
    for path in files:
        yield from parse_file(path.read_text(), str(path)).kernels


def _envs_equal(a: dict, b: dict) -> bool:
    if list(a) != list(b):
        return False
    for name in a:
        x, y = a[name], b[name]
        if type(x) is not type(y):
            return False
        if isinstance(x, np.ndarray) and not np.array_equal(x, y) or \
                not isinstance(x, np.ndarray) and repr(x) != repr(y):
            return False
    return True


@pytest.mark.parametrize("bindings", [{"n": 1}, {"n": 1.0}, {"n": True}, {"n": 0.0}, {"n": -0.0}, {"n": 2**70},
                                      {"n": np.int64(5)}, {"n": np.arange(3)}, {"n": "text"}, {"m": 1, "n": 2},
                                      {"n": 2, "m": 1}])
@pytest.mark.parametrize("grid", [None, (4, 1, 1), (4.0, 1, 1), [4, 1, 1]])
def test_the_shared_environment_is_the_one_thread_env_builds(bindings, grid):
    block = BlockShape(64)
    # every other binding first, so that a key that confused two of them would hand the wrong one out
    for other in ({"n": 1}, {"n": 1.0}, {"n": True}, {"n": 0.0}, {"n": -0.0}, {"m": 1, "n": 2}):
        shared_thread_env(block, grid, other)
    env, signature = shared_thread_env(block, grid, bindings)
    expected = thread_env(block, grid, bindings)
    assert _envs_equal(env, expected)
    assert signature == threads._signature(expected, block.slots)
    # asked again: the same pair, shared, where the values can be keyed
    again = shared_thread_env(block, grid, dict(bindings))
    plain = all(type(v) in (int, bool, float) for v in [*bindings.values(), *(grid or ())])
    assert (again[0] is env) == plain


def _results(kernel, block, grid, bindings, weights):
    result = memory.analyze(kernel, block, bindings, grid, weights)
    found = intensity.analyze(kernel, result, weights)
    return [a.to_json() for a in result.accesses], result.divergence_json(), found.to_json()


@pytest.mark.parametrize("setup", range(len(SETUPS)))
def test_kernels_analysed_on_the_shared_environment_get_the_general_answers(setup):
    block, grid, bindings = SETUPS[setup]
    compared = 0
    for kernel in _kernels():
        env, signature = shared_thread_env(block, grid, bindings)
        fast = ExecWeights(env, block.slots, active_slots(block), signature)
        general = ExecWeights(thread_env(block, grid, bindings), block.slots, active_slots(block))
        assert fast.lanes.signature == general.lanes.signature
        assert _results(kernel, block, grid, bindings, fast) == _results(kernel, block, grid, bindings, general)
        compared += bool(kernel.accesses)
    assert compared > 30


def test_analyze_kernel_shares_one_environment_per_setup(monkeypatch):
    envs = []
    general = analyze_module.ExecWeights
    monkeypatch.setattr(analyze_module, "ExecWeights", lambda env, *rest: envs.append(env) or general(env, *rest))
    options = Options(block=(128, 1, 1), registers="estimate")
    for kernel in list(_kernels())[:6]:
        analyze_kernel(kernel, options, None, "k.cu")
    assert len(envs) == 6 and len({id(env) for env in envs}) == 1


def _intensity_json(kernel, block):
    weights = ExecWeights(thread_env(block, None, {}), block.slots, active_slots(block))
    return intensity.analyze(kernel, memory.analyze(kernel, block, {}, None, weights), weights).to_json()


def _loop_kernels():
    """Kernels whose guards test a loop's variable: their executions go through _lanes_within."""
    return [k for k in _kernels(ALL_FILES) if any(c.expr.symbols() & {loop.var for loop in site.context.loops if loop.var}
                                                  for site in k.arith for c in site.context.conditions)]


def test_the_project_has_kernels_that_test_loop_variables():
    assert len(_loop_kernels()) >= 5


@pytest.mark.parametrize("block", [BlockShape(256), BlockShape(64)], ids=str)
def test_loop_value_environments_found_through_the_parent_answer_as_fresh_ones(monkeypatch, block):
    kernels = _loop_kernels()
    threads._KEPT.clear()
    monkeypatch.setattr(threads, "WITHIN_THROUGH_PARENT", False)
    general = [_intensity_json(kernel, block) for kernel in kernels]
    monkeypatch.setattr(threads, "WITHIN_THROUGH_PARENT", True)
    threads._KEPT.clear()
    shared = [_intensity_json(kernel, block) for kernel in kernels]
    twice = [_intensity_json(kernel, block) for kernel in kernels]     # every within found through the parent
    assert shared == general and twice == general
    assert sum(len(kept.within) for kept in threads._KEPT.values()) > 20


def _analyse(kernels, block, env, signature, parent_kept=None, over_bound=()) -> int:
    """Analyses the kernels' memory and intensity; checks that every loop value's Lanes uses the kept
    values _KEPT holds for its signature, as _kept_for gives them, and none of `over_bound`;
    returns how many it checked."""
    seen = 0
    for kernel in kernels:
        weights = ExecWeights(env, block.slots, active_slots(block), signature)
        if parent_kept is not None:
            weights.lanes._kept = parent_kept
        intensity.analyze(kernel, memory.analyze(kernel, block, {}, None, weights), weights)
        for within, _ in weights.lanes._within.values():
            if within.signature is not None:
                assert threads._KEPT.get(within.signature) is within._kept
                assert not any(within._kept is kept for kept in over_bound)
                seen += 1
    return seen


def test_a_within_environment_is_the_one_kept_under_its_signature(monkeypatch):
    """Also after _KEPT dropped environments: a shortcut that did not check would keep handing out
    a dropped set, through a parent that outlived the drop or to a within over its bound."""
    kernels = _loop_kernels()
    block = BlockShape(256)
    # (intens27's column path makes few Lanes of loop values)
    monkeypatch.setattr(trips, "COLUMN_VALUES", False)
    env, signature = shared_thread_env(block, None, {})
    threads._KEPT.clear()
    assert _analyse(kernels, block, env, signature) > 20
    parent = threads._KEPT[signature]
    assert parent.within
    # everything dropped, as _kept_for does it, while a Lanes of the old parent is still in use
    threads._KEPT.clear()
    threads._DROPS[0] += 1
    assert _analyse(kernels, block, env, signature, parent) > 20
    # each within over its bound (the parent is not): _kept_for drops it and starts a new one (and
    # their total is not to clear everything on the way)
    monkeypatch.setattr(threads, "_MAX_KEPT_SLOTS", 1 << 62)
    assert _analyse(kernels, block, env, signature) > 20
    over_bound = [kept for _, _, kept, _ in threads._KEPT[signature].within.values()]
    assert len(over_bound) > 20
    for kept in over_bound:
        kept.size = lambda: threads._MAX_SLOTS_PER_ENVIRONMENT + 1
    assert _analyse(kernels, block, env, signature, over_bound=over_bound) > 20
