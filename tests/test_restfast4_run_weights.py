"""intensity.analyze asks ExecWeights for the count of a run of sites (or accesses) with one Context
object (and one count of hoisted loops) once (REUSE_RUN_WEIGHTS): for every kernel of the project's
files, in block shapes that fill their warps or not, with and without bound sizes, the intensity
result is the general path's, which asks for every site and access; and runs of one context are
common enough to matter."""

import pytest

from kernelscope.analyses import intensity, memory
from kernelscope.analyses.threads import BlockShape, active_slots, thread_env
from kernelscope.analyses.trips import ExecWeights
from project_sources import PROJECT_CUDA_FILES, project_kernels

FILES = PROJECT_CUDA_FILES
CASES = [(BlockShape(256), {}), (BlockShape(100), {}), (BlockShape(128), {"n": 4096, "N": 4096, "steps": 8})]


_kernels = project_kernels


def _intensity(kernel, block, bindings):
    # fresh ExecWeights for each path: nothing it kept for one can answer for the other
    weights = ExecWeights(thread_env(block, None, dict(bindings)), block.slots, active_slots(block))
    result = memory.analyze(kernel, block, bindings, None, weights)
    return vars(intensity.analyze(kernel, result, weights, intensity.default_gpu("sm_90"), 4096))


@pytest.mark.parametrize("block,bindings", CASES, ids=[f"{b}-{len(v)}" for b, v in CASES])
def test_run_weights_give_the_general_results(monkeypatch, block, bindings):
    symbolic = 0
    for kernel in _kernels():
        monkeypatch.setattr(intensity, "REUSE_RUN_WEIGHTS", False)
        general = _intensity(kernel, block, bindings)
        monkeypatch.setattr(intensity, "REUSE_RUN_WEIGHTS", True)
        assert _intensity(kernel, block, bindings) == general, kernel.name
        symbolic += bool(general["symbolic"])
    assert symbolic > 0       # unknown counts (the other branch of the loops) are compared too


def test_sites_come_in_runs_of_one_context():
    sites = runs = hoisted = 0
    for kernel in _kernels():
        previous = None
        for site in kernel.arith:
            sites += 1
            runs += site.context is not previous
            previous = site.context
        hoisted += sum(1 for access in kernel.accesses if access.hoisted_loops)
    assert runs < sites / 2 and hoisted > 0
