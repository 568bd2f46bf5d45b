"""A quiet loop nest (every event under it inert: the fmaf loops of a register tile) skimmed again
with the same values leaves behind what it left the first time, from the memo: steps, notes, trip
counts and the values it makes unknown. These compare the findings with and without summaries on
kernels with such nests, and check that a summary leaving out any one of those is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file
from kernel_bodies import kernel_of

ROOT = Path(__file__).resolve().parents[1]


BODIES = {
    "a register tile updated in every iteration": """
__shared__ float t[256];
float acc[4][4] = {};
for (int p = 0; p < 8; p++) {
    t[threadIdx.x] = x[p * 256 + threadIdx.x];
    __syncthreads();
    float v = t[(threadIdx.x + p) % 256];
    for (int r = 0; r < 4; r++)
        for (int q = 0; q < 4; q++)
            acc[r][q] = fmaf(v, acc[r][q], 1.0f);
    __syncthreads();
}
y[threadIdx.x] = acc[0][0];""",
    "nests of unknown length, one of them growing with the counter": """
__shared__ float t[256];
float s = 0.0f;
for (int p = 0; p < 6; p++) {
    for (int r = 0; r < n; r++)
        for (int q = 0; q < p; q++)
            s = fmaf(s, 0.5f, 1.0f);
    t[threadIdx.x] = s;
    __syncthreads();
    y[p] = t[(threadIdx.x + p) % 256];
}""",
    "a nest whose carried value a later loop bound reads": """
__shared__ float t[256];
int m = 1;
for (int p = 0; p < 5; p++) {
    for (int r = 0; r < 3; r++)
        for (int q = 0; q < 2; q++)
            m = (int)fmaf((float)m, 2.0f, 0.0f);
    for (int e = threadIdx.x; e < m; e += 256)
        t[e % 256] = 1.0f;
    __syncthreads();
}
y[threadIdx.x] = t[threadIdx.x];""",
}

CORPUS = ["corpus/matmul/register_blocked.cu", "corpus/linear_relu/register_blocked.cu",
          "corpus/attention_scores/register_blocked.cu", "corpus/pairwise_dist/register_blocked.cu",
          "corpus/conv2d/register_blocked.cu", "corpus/nbody/unrolled.cu"]


def _cases():
    for name, body in BODIES.items():
        yield name, kernel_of(body), {}
    for path in CORPUS:
        for kernel in parse_file((ROOT / path).read_text(), path).kernels:
            yield path, kernel, {}
            yield f"{path} bound", kernel, {"n": 128, "m": 128, "k": 64, "d": 64, "in_features": 64}


CASES = list(_cases())


def _findings(kernel, bindings) -> dict:
    return sync.analyze(kernel, (256, 1, 1), bindings, grid=(2, 2, 1)).to_json()


@pytest.mark.parametrize("name,kernel,bindings", CASES, ids=lambda case: case if isinstance(case, str) else "")
def test_summaries_leave_what_skimming_leaves(name, kernel, bindings, monkeypatch):
    summarised = _findings(kernel, bindings)
    monkeypatch.setattr(sync, "SKIM_SUMMARIES", False)
    assert summarised == _findings(kernel, bindings)


def test_a_trace_cut_inside_a_summarised_nest_is_walked(monkeypatch):
    kernel = kernel_of(BODIES["a register tile updated in every iteration"])
    for limit in (40, 77, 150):
        monkeypatch.setattr(sync, "MAX_STEPS", limit)
        monkeypatch.setattr(sync, "SKIM_SUMMARIES", True)
        summarised = _findings(kernel, {})
        assert any("trace cut" in note for note in summarised["notes"])
        monkeypatch.setattr(sync, "SKIM_SUMMARIES", False)
        assert summarised == _findings(kernel, {})


def test_summaries_are_used(monkeypatch):
    used = []
    real = sync.BlockRun.skim_loop
    monkeypatch.setattr(sync.BlockRun, "skim_loop", lambda self, node, env: (used.append(node), real(self, node, env)))
    _findings(CASES[0][1], {})
    with_summaries = len(used)
    used.clear()
    monkeypatch.setattr(sync, "SKIM_SUMMARIES", False)
    _findings(CASES[0][1], {})
    assert with_summaries < len(used)


def _skim_twice(body: str, bindings: dict) -> list:
    """(steps taken, notes made, trip counts, environment changes) of skimming each quiet nest of
    the kernel's loop tree twice in one block, each time in a fresh copy of the environment and
    with the trip counts found so far forgotten."""
    kernel = kernel_of(body)
    tree = sync.loop_tree(sync.program_order(kernel))
    space = sync._thread_space((256, 1, 1))
    env = {**bindings, **space.env, "blockIdx.x": 0, "blockIdx.y": 0, "blockIdx.z": 0}
    run = sync.BlockRun(tree, space, env, set(), {}, sync.Findings())
    seen = []
    nests = [node for node in tree if isinstance(node, sync.LoopNode) and node.quiet]
    assert nests and any(node.plain_steps is None for node in nests)
    for node in nests:
        for _ in range(2):
            notes: list = []
            run.found.note = notes.append
            run.found.loop_trips = {}
            before, inner = run.steps, dict(env)
            run.skim(node, inner)
            lines = {id(loop): loop.line for loop in kernel.loops}
            trips = sorted((lines[key], count) for key, count in run.found.loop_trips.items())
            seen.append((run.steps - before, notes, trips, {k: v for k, v in inner.items() if env.get(k) is not v}))
    return seen


NESTED_QUIET = """
float s = 0.0f;
for (int r = 0; r < n; r++)
    for (int q = 0; q < 5; q++)
        s = fmaf(s, 0.5f, 1.0f);
for (int u = 0; u < 3; u++)
    for (int w = 0; w < 64; w++)
        s = fmaf(s, 1.0f, 1.0f);
y[threadIdx.x] = s;"""


def test_a_summary_leaves_what_skimming_leaves(monkeypatch):
    summarised = _skim_twice(NESTED_QUIET, {})
    # a hit makes its notes again (a look-ahead holding them back needs them; the walk's list
    # keeps one of each)
    assert any(notes for _, notes, _, _ in summarised[1::2])
    monkeypatch.setattr(sync, "SKIM_SUMMARIES", False)
    walked = _skim_twice(NESTED_QUIET, {})
    assert [(steps, trips, env) for steps, _, trips, env in summarised] == \
        [(steps, trips, env) for steps, _, trips, env in walked]
    assert [set(notes) for _, notes, _, _ in summarised[::2]] == [set(notes) for _, notes, _, _ in walked[::2]]


@pytest.mark.parametrize("left_out", range(4))
def test_a_summary_leaving_something_out_is_caught(left_out, monkeypatch):
    # steps, notes, trip counts, forgotten names
    real = sync.BlockRun.skim_summary

    def broken(self, node, env, computed):
        summary = real(self, node, env, computed)
        if summary is None:
            return None
        empty = (0, (), (), ())
        return tuple(empty[k] if k == left_out else part for k, part in enumerate(summary))

    honest = _skim_twice(NESTED_QUIET, {})
    monkeypatch.setattr(sync.BlockRun, "skim_summary", broken)
    assert _skim_twice(NESTED_QUIET, {}) != honest
