"""intens27: ExecWeights._count_executions sums over the involved loops' values with each guard that
reads their variables evaluated once for all value combinations (each variable as a column, Lanes.masks_over_values;
trips.COLUMN_VALUES's switch), not once per value through Lanes.mask_in. Compared with the switch
off, float for float, on every context of every project kernel under several launches, and on
hand-made kernels: tree reductions, unrolled stencils, guards mixing the loop variable and
threadIdx, loads in guards, unknown bounds, unbound scalars, values for which a guard cannot be
evaluated (division by zero), guards over two unbound scalars (the verdict on their stand-ins kept
on the node), integers too large for int64 to hold as Python does, rows that no lane passes,
partial warps. Also Lanes.masks_over_values
row by row against mask_in."""

import numpy as np
import pytest

from kernelscope.analyses import threads, trips
from kernelscope.analyses.threads import BlockShape, active_slots, thread_env
from kernelscope.analyses.trips import ExecWeights
from kernelscope.frontend.parse import parse_file
from project_sources import project_kernels

LAUNCHES = [(BlockShape(256), {}), (BlockShape(16, 16), {}), (BlockShape(100), {}),
            (BlockShape(128), {"n": 4096, "N": 4096, "width": 1024, "size": 300}), (BlockShape(32), {"n": 7})]

HAND_MADE = """
__global__ void reduce(float* a, float* out, int n, int p, int q) {
    __shared__ float s[512];
    int t = threadIdx.x;
    for (int h = blockDim.x / 2; h > 0; h >>= 1) {
        if (t < h) s[t] += s[t + h];
        if (t % (2 * h) == 0) s[t] += 1.0f;
        if (t < h && t + h < n) s[t] -= 1.0f;
        if (t >= h) { s[t] = 0.0f; } else { s[t] = 2.0f; }
        __syncthreads();
    }
    for (int h = 1; h < blockDim.x; h *= 2) {
        int index = 2 * h * t;
        if (index < blockDim.x) s[index] += s[index + h];
        if (a[t + h] > 0.0f && t < h) s[t] += 3.0f;
        if (a[h] > 0.0f) s[t] += 4.0f;
    }
    for (int k = 0; k < n; k++) {
        if (t < k) a[t] += 1.0f;
    }
    for (int k = 0; k < 8; k++) {
        if (t < k * n) a[t] += 1.0f;
        if (t < k * n + m2(n)) a[t] += 1.0f;
        if (t / (k - 3) > 0) a[t] += 2.0f;
        if ((t << k) < 1000) a[t] += 2.0f;
        if (t < k * 2.5f) a[t] += 2.0f;
        if (t > 5000 + k) a[t] += 2.0f;
        if (n < k) a[t] += 2.0f;
        if (t + k >= p - 1 - q) a[t] += 6.0f;
        if (t + k >= p - 1 - q) a[t] -= 6.0f;
        if (t * k < p + q) a[t] += 6.0f;
        if (t + k < p - q) a[t] += 7.0f;
        if (t + k < p - q) { a[t] -= 7.0f; a[t] *= 7.0f; }
        if (t < 8 && t + k < p - q) a[t] -= 7.0f;
        if (t + k < p - q + 16) {
            a[t] -= 8.0f;
            if (t < 100) a[t] += 9.0f;
            if (t * k < p + q && t > 2) a[t] += 9.0f;
        }
        if (t * k < p + q) { a[t] -= 6.0f; a[t] *= 6.0f; }
        if (t < p && k < q) a[t] -= 6.0f;
        if (t < k * n * n - n * k * n + 5) a[t] += 2.0f;
        if (t * 0.5f < k * n * 0.25f) a[t] += 2.0f;
        if (t < k * n * n / n - n * k + 9) a[t] += 2.0f;
        if (t < n + k && t > n - k) a[t] += 2.0f;
        if (k < n && t < 3) a[t] += 2.0f;
        if (min(t, k) == k) a[t] += 2.0f;
        if ((k > 2 ? t : t + 4) < 9) a[t] += 2.0f;
        if ((k > 2 ? 3 : 2.5f) / 4 * t < 4) a[t] += 2.0f;
        if (min(k, 2.5f) / 2 * t < 4) a[t] += 2.0f;
        for (int j = 0; j < 4; j++) {
            if (t < k + j) a[t] += 5.0f;
            if (t < j) a[t] += 5.0f;
        }
    }
}

__global__ void stencil(const float* in, float* out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float sum = 0.0f;
    #pragma unroll
    for (int dy = -2; dy <= 2; dy++) {
        #pragma unroll
        for (int dx = -2; dx <= 2; dx++) {
            if (x + dx >= 0 && x + dx < width) sum += in[(y + dy) * width + x + dx];
        }
        if (y + dy >= 0 && y + dy < height && threadIdx.x < 8) sum += 1.0f;
        if (threadIdx.x - dy < 3) sum *= 2.0f;
    }
    for (int r = 0; r < 7; r++) {
        if (threadIdx.x + r < width && threadIdx.y < height + r) sum += in[r];
        if (threadIdx.x < r - width) sum += 1.0f;
    }
    out[y * width + x] = sum;
}
"""

HAND_LAUNCHES = LAUNCHES + [(BlockShape(8, 4), {"width": 5, "height": 3}), (BlockShape(64), {"n": 0}),
                            (BlockShape(48), {"n": -3, "width": -1}),
                            (BlockShape(64), {"n": (1 << 40) + 3, "width": (1 << 52) + 1, "height": 1 << 62})]


def _contexts(kernel):
    return [record.weight_context for record in kernel.accesses] + [site.context for site in kernel.arith]


def _executions(kernels, block, bindings, column: bool, monkeypatch):
    """Each context's execution count, every count computed (none kept across kernels), from fresh
    kept values; and how many sums the column path answered."""
    monkeypatch.setattr(trips, "COLUMN_VALUES", column)
    monkeypatch.setattr(trips, "KEEP_COUNTS", False)
    threads._KEPT.clear()
    threads._DROPS[0] += 1
    answered = [0]
    original = ExecWeights._sum_over_columns

    def counted(self, involved, conditions):
        total = original(self, involved, conditions)
        answered[0] += total is not None
        return total

    monkeypatch.setattr(ExecWeights, "_sum_over_columns", counted)
    counts = []
    for kernel in kernels:
        weights = ExecWeights(thread_env(block, None, dict(bindings)), block.slots, active_slots(block))
        counts.extend((kernel.name, weights.executions(context)) for context in _contexts(kernel))
    return counts, answered[0]


def _same_floats(a, b):
    """Equal lists of (name, count), floats compared by their bits (nan and -0.0 included)."""
    assert len(a) == len(b)
    for (name, x), (other, y) in zip(a, b):
        assert name == other
        assert (x is None) == (y is None), name
        if x is not None:
            assert np.float64(x).tobytes() == np.float64(y).tobytes(), (name, x, y)


@pytest.mark.parametrize("block,bindings", LAUNCHES, ids=[f"{b}-{len(v)}" for b, v in LAUNCHES])
def test_project_kernels_count_as_one_value_at_a_time(block, bindings, monkeypatch):
    kernels = list(project_kernels())
    column, answered = _executions(kernels, block, bindings, True, monkeypatch)
    general, never = _executions(kernels, block, bindings, False, monkeypatch)
    assert never == 0
    assert answered > 0
    _same_floats(column, general)


@pytest.mark.parametrize("block,bindings", HAND_LAUNCHES, ids=[f"{b}-{len(v)}" for b, v in HAND_LAUNCHES])
def test_hand_made_guards_count_as_one_value_at_a_time(block, bindings, monkeypatch):
    kernels = parse_file(HAND_MADE, "intens27.cu").kernels
    column, answered = _executions(kernels, block, bindings, True, monkeypatch)
    general, _ = _executions(kernels, block, bindings, False, monkeypatch)
    assert answered > 0
    _same_floats(column, general)
    # the reductions' guards make counts of many different values: a wrong row would show
    assert len({count for _, count in general}) >= 8


def _guard_sets(kernels):
    """(conditions, loop) for each context whose guards read a uniform loop's variable."""
    for kernel in kernels:
        for context in _contexts(kernel):
            for loop in context.loops:
                if loop.var and not loop.thread_dependent and \
                        any(loop.var in c.expr.symbols() for c in context.conditions):
                    yield context.conditions, loop


@pytest.mark.parametrize("block,bindings", HAND_LAUNCHES[:4], ids=[f"{b}-{len(v)}" for b, v in HAND_LAUNCHES[:4]])
def test_masks_over_values_are_mask_in_row_by_row(block, bindings):
    kernels = parse_file(HAND_MADE, "intens27.cu").kernels
    threads._KEPT.clear()
    threads._DROPS[0] += 1
    env = thread_env(block, None, dict(bindings))
    lanes = threads.Lanes(env, block.slots, active_slots(block))
    values = [-3, 0, 1, 3, 4, 7, 64, 300]
    compared = declined = 0
    for conditions, loop in _guard_sets(kernels):
        masks = lanes.masks_over_values(conditions, (loop.var,), [(value,) for value in values])
        if masks is None:
            declined += 1
            continue
        assert masks.shape == (len(values), block.slots)
        for row, value in zip(masks, values):
            expected = lanes.mask_in(conditions, {**env, loop.var: value}, {loop.var: value})
            if not expected.any() or not row.any():
                # mask_in retries a row no lane passes without the guards over unbound names:
                # the caller asks it for those rows (see ExecWeights._sum_over_columns)
                if any(n not in env for c in conditions for n in c.expr._free_names):
                    continue
            assert np.array_equal(row, expected), ([str(c.expr) for c in conditions], loop.var, value)
            compared += 1
    assert compared > 20
    # loads, division by zero for k = 3, `<<`, float constants: the general path answers those
    assert declined > 3


def _shared_counts(kernels, block, bindings):
    """Every context's executions(), the kernels' ExecWeights on one signed environment (as analyze
    makes it: what one kernel keeps answers the next)."""
    counts = []
    for kernel in kernels:
        env, signature, slots, active = threads.shared_launch(block, None, dict(bindings))
        weights = ExecWeights(env, slots, active, signature)
        counts.append([(kernel.name, weights.executions(context)) for context in _contexts(kernel)])
    return counts


JUDGED_ELSEWHERE = """
__global__ void judged(float* a, int n, int p, int q) {
    int t = threadIdx.x;
    for (int k = 0; k < 4; k++) {
        if (t < (p - q) * n + 16) a[t] += 1.0f;
        if (t < (p - q) * n + 16 && t < 8 * k) a[t] += 2.0f;
    }
    if (t < (p - q) * n + 16) a[t] += 3.0f;
}
"""


@pytest.mark.parametrize("order", [1, -1])
def test_copies_judged_in_other_environments_keep_their_own_counts(order, monkeypatch):
    """A guard's verdict on its stand-ins is its node's, from the first environment that judged it:
    with n = 1 the stand-ins decide `t < (p - q) * n + 16`, with n = 0 they do not. A copy judged
    first with n = 1 counts differently with n = 0 from a copy judged there: the kept counts
    must keep them apart."""
    block = BlockShape(128)
    first, second = [parse_file(JUDGED_ELSEWHERE.replace("judged(", f"judged{copy}("), "j.cu").kernels[0]
                     for copy in range(2)]
    threads._KEPT.clear()
    threads._DROPS[0] += 1
    _shared_counts([first], block, {"n": 1})
    kernels = [first, second][::order]
    monkeypatch.setattr(trips, "KEEP_COUNTS", False)
    general = _shared_counts(kernels, block, {"n": 0})
    assert [count for _, count in general[0]] != [count for _, count in general[1]]
    monkeypatch.setattr(trips, "KEEP_COUNTS", True)
    threads._KEPT.clear()
    threads._DROPS[0] += 1
    assert _shared_counts(kernels, block, {"n": 0}) == general
