"""The per-kernel set-up of the memory and intensity analyses (analyze._exec_weights), compared with
the general path:

- threads.shared_launch keeps the block's slot count and active_slots(block) with the shared thread
  environment and signature, instead of asking the block (and active_slots' cache, by its hash) per
  kernel;
- threads._kept_for knows its last signature by identity, without hashing the nested tuple in
  _KEPT again, while _KEPT has dropped nothing since."""

import numpy as np
import pytest

from kernelscope.analyses import intensity, memory, threads
from kernelscope.analyses.threads import BlockShape, active_slots, shared_launch, shared_thread_env, thread_env
from kernelscope.analyses.trips import ExecWeights
from kernelscope.analyze import _exec_weights
from kernelscope.frontend.parse import parse_file
from project_sources import PROJECT_CUDA_FILES

SETUPS = [(BlockShape(256), None, {}), (BlockShape(16, 16), (8, 8, 1), {"n": 1000}),
          (BlockShape(100), None, {"n": 64}), (BlockShape(33, 3), (5, 1, 1), {})]


@pytest.mark.parametrize("setup", range(len(SETUPS)))
def test_the_shared_launch_holds_what_the_block_gives(setup):
    block, grid, bindings = SETUPS[setup]
    for other in SETUPS:           # the others first: a key that confused two would hand out the wrong one
        shared_launch(*other)
    env, signature, slots, active = shared_launch(block, grid, bindings)
    assert (env, signature) == shared_thread_env(block, grid, bindings)
    assert slots == block.slots
    assert active is active_slots(block)
    assert np.array_equal(active, threads.thread_space(block, padded=True).active)


def test_an_unkeyable_launch_gets_its_own_set_up():
    block = BlockShape(100)
    env, signature, slots, active = shared_launch(block, None, {"n": np.arange(3)})
    assert slots == block.slots and np.array_equal(active, active_slots(block))
    assert shared_launch(block, None, {"n": np.arange(3)})[0] is not env


def test_the_last_signature_is_known_by_identity_only_while_nothing_was_dropped():
    threads._KEPT.clear()
    threads._DROPS[0] += 1
    env, signature = shared_thread_env(BlockShape(64), None, {"n": 7})
    first = threads._kept_for(signature, env, 64)
    assert threads._kept_for(signature, env, 64) is first is threads._KEPT[signature]
    # an equal signature that is another object: found through _KEPT, the same values
    assert threads._kept_for(tuple(signature), env, 64) is first
    # _KEPT dropped its environments: the remembered one is not handed out again
    threads._KEPT.clear()
    threads._DROPS[0] += 1
    again = threads._kept_for(signature, env, 64)
    assert again is not first and again is threads._KEPT[signature]
    # one grown past its bound is dropped and made again, as before
    again.answers.update((k, None) for k in range(threads._MAX_SLOTS_PER_ENVIRONMENT // 64 + 1))
    fresh = threads._kept_for(signature, env, 64)
    assert fresh is not again and fresh is threads._KEPT[signature]


def _results(kernel, block, grid, bindings, weights):
    result = memory.analyze(kernel, block, bindings, grid, weights)
    found = intensity.analyze(kernel, result, weights)
    return [a.to_json() for a in result.accesses], result.divergence_json(), found.to_json()


@pytest.mark.parametrize("setup", range(len(SETUPS)))
def test_kernels_get_the_answers_of_a_general_set_up(setup):
    block, grid, bindings = SETUPS[setup]
    compared = 0
    for path in PROJECT_CUDA_FILES[:30]:
        for kernel in parse_file(path.read_text(), str(path)).kernels:
            fast = _exec_weights(block, grid, bindings)
            general = ExecWeights(thread_env(block, grid, bindings), block.slots, active_slots(block))
            assert fast.slots == general.slots and np.array_equal(fast.active, general.active)
            assert fast.lanes.signature == general.lanes.signature
            assert _results(kernel, block, grid, bindings, fast) == _results(kernel, block, grid, bindings, general)
            compared += bool(kernel.accesses)
    assert compared > 20
