"""ExecWeights keeps each context's weights by the identity of its loops (and an outermost loop's
values by its own): asked in any order, one ExecWeights must answer as a fresh one does per question."""

import pytest

from kernelscope.analyses.threads import BlockShape, active_slots, thread_env
from kernelscope.analyses.trips import ExecWeights
from kernelscope.frontend.parse import parse_file

SOURCE = """
__global__ void nests(float* a, float* b, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    for (int i = 0; i < 4; i++) a[t + i] = b[t];
    for (int i = 0; i < 12; i += 2) {
        a[t * 2 + i] += 1.0f;
        for (int j = 0; j < 3; j++) b[t + j] = a[t];
    }
    for (int k = 0; k < n; k++) a[k] = 0.0f;
    for (int s2 = 128; s2 > 0; s2 >>= 1) {
        if (t < s2) s[t] += s[t + s2];
        if (t < s2 / 2) s[t] -= 1.0f;
        __syncthreads();
    }
    for (int s3 = 64; s3 > 0; s3 >>= 1) {
        if (t < s3) s[t] += s[t + s3];
    }
}
"""


def _fresh(block):
    return ExecWeights(thread_env(block, None, {}), block.slots, active_slots(block))


@pytest.mark.parametrize("order", [1, -1])
def test_one_exec_weights_answers_as_fresh_ones_do_in_either_order(order):
    kernel = parse_file(SOURCE, "nests.cu").kernels[0]
    block = BlockShape(256)
    contexts = [record.weight_context for record in kernel.accesses] + [site.context for site in kernel.arith]
    shared = _fresh(block)
    answers = [(shared.weight(c), shared.averaging_weight(c), shared.executions(c)) for c in contexts[::order]]
    expected = [(_fresh(block).weight(c), _fresh(block).averaging_weight(c), _fresh(block).executions(c))
                for c in contexts[::order]]
    assert answers == expected
    # the kernel's loops differ in trip counts, so a key that confused two of them would show
    assert len({weight for weight, _, _ in expected}) >= 4
    assert len({executions for _, _, executions in expected}) >= 5
