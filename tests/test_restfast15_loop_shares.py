"""restfast15: ExecWeights keeps the sum over loop values of a context's guards (_loop_share_sum) with
its environment's values, by the guards' structures and the loops' structures, where every guard's
truth is kept by structure (at most one name the environment lacks). Compared with the general
recursion (KEEP_LOOP_SHARES off) on every statement context of the project's kernels, in block shapes
that fill their warps or not, with and without bound sizes; on kernels written alike (the second one
is answered from the first one's sum); and on guards over two unbound names, which are never shared."""
import pytest

from kernelscope.analyses import trips
from kernelscope.analyses.threads import BlockShape, active_slots, shared_launch, thread_env
from kernelscope.analyses.trips import ExecWeights
from kernelscope.frontend.parse import parse_file
from project_sources import project_kernels

CASES = [(BlockShape(256), {}), (BlockShape(100), {}), (BlockShape(128), {"n": 4096, "N": 4096, "steps": 8}),
         (BlockShape(16, 16), {})]


def _counts(kernels, block, bindings, shared: bool):
    """Every context's executions(); `shared`: the kernels' ExecWeights on one signed environment
    (as analyze does), else each on its own unsigned one (nothing kept is shared between them)."""
    counts = []
    for kernel in kernels:
        if shared:
            env, signature, slots, active = shared_launch(block, None, dict(bindings))
            weights = ExecWeights(env, slots, active, signature)
        else:
            weights = ExecWeights(thread_env(block, None, dict(bindings)), block.slots, active_slots(block), None)
        contexts = [site.context for site in kernel.arith] + [a.weight_context for a in kernel.accesses]
        counts.append([weights.executions(context) for context in contexts])
    return counts


def _kept_sums(monkeypatch) -> list:
    """The answers _loop_share_sum gave from a kept sum (not computed in the call)."""
    hits = []
    inner = ExecWeights._summed_over_loop_values
    computing = [0]

    def counting(self, involved, conditions):
        computing[0] += 1
        return inner(self, involved, conditions)
    outer = ExecWeights._loop_share_sum

    def watching(self, involved, conditions):
        before = computing[0]
        total = outer(self, involved, conditions)
        if computing[0] == before:
            hits.append(total)
        return total
    monkeypatch.setattr(ExecWeights, "_summed_over_loop_values", counting)
    monkeypatch.setattr(ExecWeights, "_loop_share_sum", watching)
    return hits


@pytest.mark.parametrize("block,bindings", CASES, ids=[f"{b}-{len(v)}" for b, v in CASES])
def test_counts_are_the_general_paths(monkeypatch, block, bindings):
    kernels = list(project_kernels())
    monkeypatch.setattr(trips, "KEEP_LOOP_SHARES", False)
    general = _counts(kernels, block, bindings, shared=False)
    monkeypatch.setattr(trips, "KEEP_LOOP_SHARES", True)
    hits = _kept_sums(monkeypatch)
    # twice: the second pass is answered from what the first kept
    assert _counts(kernels, block, bindings, shared=True) == general
    assert _counts(kernels, block, bindings, shared=True) == general
    assert len(hits) > 50          # kept sums were really used


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
    monkeypatch.setattr(trips, "KEEP_LOOP_SHARES", False)
    general = _counts(kernels, block, {}, shared=False)
    monkeypatch.setattr(trips, "KEEP_LOOP_SHARES", True)
    assert _counts(kernels, block, {}, shared=True) == general
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
    monkeypatch.setattr(trips, "KEEP_LOOP_SHARES", False)
    general = _counts(kernels, block, {}, shared=False)
    monkeypatch.setattr(trips, "KEEP_LOOP_SHARES", True)
    hits = _kept_sums(monkeypatch)
    assert _counts(kernels, block, {}, shared=True) == general
    assert hits == []              # every sum here reads a guard over n and m: computed each time
    # and with n bound, the guards over one unbound name are kept and shared
    bound = _counts(kernels, block, {"n": 100}, shared=True)
    assert bound == _counts(kernels, block, {"n": 100}, shared=False)
