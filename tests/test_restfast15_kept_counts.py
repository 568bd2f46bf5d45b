"""restfast15: ExecWeights keeps a context's execution count (_kept_count) with its environment's
values, by the guards' structures and the loops' structures, where every guard's truth is kept by
structure (at most one name the environment lacks). Compared with the general path (KEEP_COUNTS
off) on every statement context of the project's kernels, in block shapes that fill their warps or
not, with and without bound sizes; on kernels written alike; and on guards over two unbound names,
which are never shared."""
import pytest

from kernelscope.analyses import trips
from kernelscope.analyses.threads import BlockShape, active_slots, shared_launch, thread_env
from kernelscope.analyses.trips import ExecWeights
from kernelscope.frontend.parse import parse_file
from kernelscope.symbolic import free_names
from project_sources import project_kernels

CASES = [(BlockShape(256), {}), (BlockShape(100), {}), (BlockShape(128), {"n": 4096, "N": 4096, "steps": 8}),
         (BlockShape(16, 16), {})]


def weights_for(block, bindings, shared: bool) -> ExecWeights:
    """One kernel's ExecWeights: on the launch's signed environment, which kernels of equal launches
    share (as analyze makes it), or on an unsigned one of its own (nothing kept is shared)."""
    if shared:
        env, signature, slots, active = shared_launch(block, None, dict(bindings))
        return ExecWeights(env, slots, active, signature)
    return ExecWeights(thread_env(block, None, dict(bindings)), block.slots, active_slots(block), None)


def _counts(kernels, block, bindings, shared: bool):
    """Every context's executions(); `shared`: the kernels' ExecWeights on one signed environment
    (as analyze does), else each on its own unsigned one (nothing kept is shared between them)."""
    counts = []
    for kernel in kernels:
        weights = weights_for(block, bindings, shared)
        contexts = [site.context for site in kernel.arith] + [a.weight_context for a in kernel.accesses]
        counts.append([weights.executions(context) for context in contexts])
    return counts


def _kept_counts(monkeypatch) -> list:
    """The contexts _kept_count answered from a kept count (not computed in the call)."""
    hits = []
    inner = ExecWeights._count_executions
    computing = [0]

    def counting(self, context):
        computing[0] += 1
        return inner(self, context)
    outer = ExecWeights._kept_count

    def watching(self, context):
        before = computing[0]
        count = outer(self, context)
        if computing[0] == before:
            hits.append(context)
        return count
    monkeypatch.setattr(ExecWeights, "_count_executions", counting)
    monkeypatch.setattr(ExecWeights, "_kept_count", watching)
    return hits


@pytest.mark.parametrize("block,bindings", CASES, ids=[f"{b}-{len(v)}" for b, v in CASES])
def test_counts_are_the_general_paths(monkeypatch, block, bindings):
    kernels = list(project_kernels())
    monkeypatch.setattr(trips, "KEEP_COUNTS", False)
    general = _counts(kernels, block, bindings, shared=False)
    monkeypatch.setattr(trips, "KEEP_COUNTS", True)
    hits = _kept_counts(monkeypatch)
    # twice: the second pass is answered from what the first kept
    assert _counts(kernels, block, bindings, shared=True) == general
    assert _counts(kernels, block, bindings, shared=True) == general
    assert len(hits) > 200         # kept counts were really used


ALIKE = r"""
__global__ void reduce_a(float* out, const float* in) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) { s[t] += s[t + k]; }
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
__global__ void reduce_b(float* out, const float* in) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) { s[t] += s[t + k]; }
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
__global__ void reduce_c(float* out, const float* in) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int k = blockDim.x / 4; k > 0; k >>= 1) {
        if (t < k) { s[t] += s[t + k]; }
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
"""


@pytest.mark.parametrize("block", [BlockShape(256), BlockShape(200), BlockShape(64)], ids=str)
def test_kernels_written_alike_share_and_others_do_not(monkeypatch, block):
    kernels = parse_file(ALIKE, "alike.cu").kernels
    monkeypatch.setattr(trips, "KEEP_COUNTS", False)
    general = _counts(kernels, block, {}, shared=False)
    monkeypatch.setattr(trips, "KEEP_COUNTS", True)
    hits = _kept_counts(monkeypatch)
    assert _counts(kernels, block, {}, shared=True) == general
    assert hits                    # reduce_b's contexts are reduce_a's
    # reduce_c starts its loop at a quarter of the block: not reduce_a's sum
    assert general[2] != general[0]


TWO_UNBOUND = r"""
__global__ void two(float* out, const float* in, int n, int m) {
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k) {
        if (t * k < n + m) { acc += in[t * k]; }
        if (t + k < n && t < m) { acc += in[t + k]; }
    }
    out[t] = acc;
}
"""


def test_guards_over_two_unbound_names_are_not_shared(monkeypatch):
    kernels = parse_file(TWO_UNBOUND + TWO_UNBOUND.replace("two(", "two_again("), "two.cu").kernels
    block = BlockShape(128)
    monkeypatch.setattr(trips, "KEEP_COUNTS", False)
    general = _counts(kernels, block, {}, shared=False)
    monkeypatch.setattr(trips, "KEEP_COUNTS", True)
    hits = _kept_counts(monkeypatch)
    assert _counts(kernels, block, {}, shared=True) == general
    # every count of a context under a guard over n and m is computed each time
    assert hits and not [c for c in hits if any({"n", "m"} <= free_names(g.expr) for g in c.conditions)]
    # and with n bound, the guards over one unbound name are kept and shared
    bound = _counts(kernels, block, {"n": 100}, shared=True)
    assert bound == _counts(kernels, block, {"n": 100}, shared=False)
