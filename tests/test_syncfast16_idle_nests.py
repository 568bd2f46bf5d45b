"""syncfast16: `BlockRun.iterate` stops walking a loop with loops in it once an iteration after the
first would change nothing (`_idle_nest`): every access of the loop and of its innermost loops is
idle as `idle_from_here` has it (an inner loop's address judged with its own counter bound), and
the inner loops' bounds read nothing the loop changes, so each is entered for its trip count only
(`idle_trip_steps`) and the remaining trips' steps are counted at once.

- `_idle_nest` takes the register-tile nests and turns down inner loops whose bounds read the
  outer counter or what the loop carries, quiet inner loops, deeper nests and other events.
- The findings (races, barriers, notes, trip counts, trace cuts) of every project kernel and of
  kernels built for it equal those with the nest check off, at two block shapes, and at several
  small trace caps (where the step count decides the cut and its note).
- The nest check does skip trips in the register-tile kernels; a variant that counts each inner
  loop as one trip, and one that takes inner loops whatever their bounds read, are caught.
"""

from __future__ import annotations

import pytest

from kernelscope.analyses import sync
from kernel_bodies import kernel_of
from project_sources import project_kernels
from test_syncfast14_idle_trips import BODIES as IDLE_TRIP_BODIES

BODIES = {
    # conv2d_image's shape: the p loop's dj loop reads r and p, which p forgets from its second trip
    # (syncfast14's register tile)
    "image": IDLE_TRIP_BODIES["tile"],
    # conv2d's shape: a load beside the inner loop, both reading the forgotten outer counter
    "conv": """
    __shared__ float tile[18][18];
    __shared__ float k9[8][9];
    tile[threadIdx.x % 18][threadIdx.x / 18 % 18] = x[threadIdx.x];
    if (threadIdx.x < 72) k9[threadIdx.x / 9][threadIdx.x % 9] = x[threadIdx.x];
    __syncthreads();
    float acc = 0.0f;
    for (int dy = 0; dy < 3; dy++)
        for (int dx = 0; dx < 3; dx++) {
            float v = tile[threadIdx.x / 16 + dy][threadIdx.x % 16 + dx];
            for (int o = 0; o < 8; o++)
                acc += k9[o][dy * 3 + dx] * v;
        }
    y[threadIdx.x] = acc;
    """,
    # the inner bound reads the outer counter: trip counts differ by iteration
    "triangle": """
    __shared__ float s[256];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    float acc = 0.0f;
    for (int r = 0; r < 5; r++)
        for (int p = 0; p < 6; p++)
            for (int j = 0; j < p + 1; j++)
                acc += s[(r * 7 + j) % 256];
    y[threadIdx.x] = acc;
    """,
    # the inner bound reads what the loop carries
    "carried_bound": """
    __shared__ float s[256];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    float acc = 0.0f;
    int m = 1;
    for (int r = 0; r < 4; r++)
        for (int p = 0; p < 5; p++) {
            m = m + p;
            for (int j = 0; j < m % 4 + 1; j++)
                acc += s[(r * 7 + j + m) % 256];
        }
    y[threadIdx.x] = acc;
    """,
    # inner iterations that are not computable (n unbound): its body runs once without its counter
    "uncomputable": """
    __shared__ float s[256];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    float acc = 0.0f;
    for (int r = 0; r < 4; r++)
        for (int p = 0; p < 5; p++)
            for (int j = 0; j < 40; j += n)
                acc += s[(r * 7 + j) % 256];
    y[threadIdx.x] = acc;
    """,
    # stores in the inner loop, a barrier per outer trip: each interval must see its unknown store
    "written": """
    __shared__ float s[512];
    for (int r = 0; r < 5; r++) {
        for (int p = 0; p < 4; p++)
            for (int j = 0; j < 6; j++) {
                s[(r * 3 + p) * 8 + j] = x[j];
                y[threadIdx.x] = s[(r * 5 + j) % 512];
            }
        __syncthreads();
    }
    """,
    # a known address beside the inner loop: never idle
    "known": """
    __shared__ float s[256];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    float acc = 0.0f;
    for (int r = 0; r < 4; r++)
        for (int p = 0; p < 5; p++) {
            acc += s[(threadIdx.x + p) % 256];
            for (int j = 0; j < 3; j++)
                acc += s[(r * 7 + j) % 256];
        }
    y[threadIdx.x] = acc;
    """,
}


def _kernels():
    for name, body in BODIES.items():
        yield name, kernel_of(body), {} if name == "uncomputable" else {"n": 5}
    for kernel in project_kernels():
        yield kernel.name, kernel, {"n": 4096, "len": 1024, "cols": 64, "rows": 8, "h": 40, "w": 40,
                                    "cin": 2, "cout": 8, "width": 64, "height": 8}


KERNELS = list(_kernels())


def _findings(kernel, bindings, block):
    return sync.analyze(kernel, block, bindings, grid=(2, 2, 1)).to_json()


def _differing(monkeypatch, off, caps=(None,), kernels=KERNELS) -> list:
    found = []
    for cap in caps:
        for block in ((256, 1, 1), (32, 8, 1)):
            for name, kernel, bindings in kernels:
                with monkeypatch.context() as patch:
                    if cap is not None:
                        patch.setattr(sync, "MAX_STEPS", cap)
                    expected = _findings(kernel, bindings, block)
                    off(patch)
                    general = _findings(kernel, bindings, block)
                if expected != general:
                    found.append((name, block, cap))
    return found


def _nest_off(patch):
    patch.setattr(sync, "_idle_nest", lambda node: None)


def _nest_of(kernel, depth: int = 1):
    """The first loop of `kernel`'s loop tree with loops in it, `depth` levels down."""
    events = sync.program_order(kernel)
    sync.mark_read_only(events)
    nodes = sync.loop_tree(events)
    while True:
        for node in nodes:
            if type(node) is sync.LoopNode and any(type(c) is sync.LoopNode for c in node.children):
                if depth == 1 and not any(type(c) is sync.LoopNode and any(type(g) is sync.LoopNode
                                                                           for g in c.children)
                                          for c in node.children):
                    return node
                nodes = node.children
                break
        else:
            return None


def test_nest_plans():
    image = _nest_of(kernel_of(BODIES["image"]))
    plan = sync._idle_nest(image)
    assert plan is not None and len(plan[1]) == 1
    assert [fails for _, fails in plan[0]] == [True]       # w[di * 7 + dj] with r forgotten
    conv = sync._idle_nest(_nest_of(kernel_of(BODIES["conv"])))
    assert conv is not None and [fails for _, fails in conv[0]] == [True, True]
    for name in ("triangle", "carried_bound"):
        assert sync._idle_nest(_nest_of(kernel_of(BODIES[name]))) is None, name
    # (an enclosing loop of a nest is never judged as one)
    outer = [n for n in sync.loop_tree(sync.program_order(kernel_of(BODIES["image"])))
             if type(n) is sync.LoopNode][0]
    assert sync._idle_nest(outer) is None


def test_idle_nests_change_no_finding(monkeypatch):
    assert _differing(monkeypatch, _nest_off) == []


def test_idle_nests_change_no_trace_cut(monkeypatch):
    built = [case for case in KERNELS if case[0] in BODIES] + \
            [case for case in KERNELS if case[0] in ("conv2d", "conv2d_image", "attention_scores")]
    assert _differing(monkeypatch, _nest_off, caps=(40, 60, 80, 100, 150, 300, 1111, 2500, 6000), kernels=built) == []


def _skips(kernel, block, bindings=None) -> list:
    answers = []
    real = sync.BlockRun.idle_trip_steps

    def watched(run, node, inner, *args):
        answers.append((len(inner), real(run, node, inner, *args)))
        return answers[-1][1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sync.BlockRun, "idle_trip_steps", watched)
        sync.analyze(kernel, block, {"n": 5, "h": 40, "w": 40, "cin": 2, "cout": 8} if bindings is None else
                     bindings, grid=(1, 1, 1))
    return [steps for inner, steps in answers if inner]


def test_idle_nests_happen():
    assert _skips(kernel_of(BODIES["image"]), (256, 1, 1))
    assert _skips(kernel_of(BODIES["conv"]), (256, 1, 1))
    for name, block in (("conv2d_image", (32, 8, 1)), ("conv2d", (16, 16, 1))):
        # (of the project's kernels so named, the register-tile one)
        assert any(_skips(kernel, block) for _, kernel, _ in KERNELS if kernel.name == name), name
    # (n unbound: the inner loop's iterations are not computable, its trips left to the walk)
    assert None in _skips(kernel_of(BODIES["uncomputable"]), (256, 1, 1), {})


def test_one_trip_per_inner_loop_is_caught(monkeypatch):
    def careless(run, node, inner, *args):
        return len(node.children)

    def broken(patch):
        patch.setattr(sync.BlockRun, "idle_trip_steps", careless)

    # (caps at which the short count moves the cut: conv's and image's traces)
    built = [case for case in KERNELS if case[0] in BODIES]
    assert _differing(monkeypatch, broken, caps=(60, 150), kernels=built) != []


def test_ignoring_the_inner_bounds_is_caught(monkeypatch):
    # (the triangle's inner trip counts differ by iteration: counted as the first's, the cut moves)
    def broken(patch):
        patch.setattr(sync, "_bounds_read_none_of", lambda loop, names: True)

    built = [case for case in KERNELS if case[0] in BODIES]
    assert _differing(monkeypatch, broken, caps=(80, 100), kernels=built) != []
