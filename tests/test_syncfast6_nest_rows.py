"""A nest batch (`run_nest_batched`) records its rows of known int64 addresses without a
`record_access` call each (RECORD_ROWS), their footprints kept out of the shared table
(UNSHARED_ROWS), as `run_batched` does. These compare every interval the blocks close (what each
instance holds, and the global footprints kept for comparing blocks) and the findings with the
direct path on and off, on nests whose rows are recorded in every way: shared and global, under
conditions per inner iteration, under a condition that loads, wide elements, with barriers in the
inner loops (a sorting network) and with none (register tiles)."""

from __future__ import annotations

from pathlib import Path

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file
from kernel_bodies import kernel_of

ROOT = Path(__file__).resolve().parents[1]
FILES = ("corpus/bitonic_sort/shared_network.cu", "corpus/bitonic_sort/global_network.cu",
         "corpus/pairwise_dist/register_blocked.cu", "corpus/attention_scores/register_blocked.cu",
         "corpus/conv2d_image/register_coarsened.cu")

NESTS = [
    # a sorting network: barriers in the inner loop, stores under a per-thread condition
    """__shared__ float t[128];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int k = 2; k <= 128; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
        int p = threadIdx.x ^ j;
        if (p > threadIdx.x && ((threadIdx.x & k) == 0)) {
            float a = t[threadIdx.x];
            t[threadIdx.x] = t[p];
            t[p] = a;
        }
        __syncthreads();
    }
}
y[threadIdx.x] = t[threadIdx.x];""",
    # global stores in a barrier-free nest (kept for comparing blocks), wide elements
    """__shared__ double d[512];
d[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int k = 0; k < 8; k++)
    for (int j = 0; j < 4; j++)
        y[blockIdx.x * 4096 + (k * 4 + j) * 128 + threadIdx.x] = d[(threadIdx.x + k + j) % 512];""",
    # a store under a condition that loads (not certain), and a race within the nest
    """__shared__ float t[64];
for (int k = 0; k < 8; k++) {
    for (int j = 0; j < 4; j++)
        if (x[j] > 0.0f) t[(k * 4 + j) % 64] = x[threadIdx.x];
    for (int j = 0; j < 4; j++)
        t[(threadIdx.x + j) % 64] += 1.0f;
}""",
    # inner iterations skipped by some threads, an inner bound that reads the outer counter
    """__shared__ float t[512];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int k = 1; k < 9; k++) {
    for (int j = 0; j < k; j++)
        if (threadIdx.x % (j + 2) == 0)
            t[(threadIdx.x * 2 + k * j) % 512] += t[(threadIdx.x + j) % 512];
    __syncthreads();
}
y[threadIdx.x] = t[threadIdx.x];""",
]


_CLOSE_INTERVAL = sync.BlockRun.close_interval


def _intervals_and_findings(monkeypatch) -> tuple:
    """Every interval each kernel's blocks close, as what its instances hold, and the findings
    (with a grid, so that global footprints are kept for comparing blocks)."""
    closed = []

    def watched(self, barrier):
        closed.append([(instance.access.line, instance.access.column, instance.addresses.tolist()
                        if instance.addresses is not None else None, instance.mask.tolist(), instance.certain,
                        instance.epochs.tolist(), instance.shared is None)
                       for instance in self.interval])
        closed.append(sorted((key, [(access.line, words.tolist()) for access, words in kept])
                             for key, kept in self.footprint.items()))
        return _CLOSE_INTERVAL(self, barrier)

    monkeypatch.setattr(sync.BlockRun, "close_interval", watched)
    kernels = [kernel_of(body) for body in NESTS]
    for path in FILES:
        if (ROOT / path).exists():
            kernels += parse_file((ROOT / path).read_text(), path).kernels
    findings = [sync.analyze(kernel, (128, 1, 1), {"n": 256, "m": 64, "d": 16}, grid=(3, 1, 1)).to_json()
                for kernel in kernels]
    # (whether an instance shares the footprint table is how the paths differ on purpose: only
    # what the instances hold and what is found must agree)
    return [[row[:-1] for row in interval] if index % 2 == 0 else interval
            for index, interval in enumerate(closed)], findings, \
        [row[-1] for interval in closed[0::2] for row in interval]


def _nest_recorders(monkeypatch) -> list:
    """Whether each plan entry of a nest batch was given a recorder (the direct path)."""
    recorders: list = []
    real_recorder = sync.BlockRun.row_recorder
    real_nest = sync.BlockRun.run_nest_batched
    inside = []

    def counted(self, entry):
        recorder = real_recorder(self, entry)
        if inside:
            recorders.append(recorder is not None)
        return recorder

    def nest(self, *args):
        inside.append(True)
        try:
            return real_nest(self, *args)
        finally:
            inside.pop()

    monkeypatch.setattr(sync.BlockRun, "row_recorder", counted)
    monkeypatch.setattr(sync.BlockRun, "run_nest_batched", nest)
    return recorders


def test_nest_rows_recorded_directly_are_what_record_access_records(monkeypatch):
    recorders = _nest_recorders(monkeypatch)
    fast, fast_findings, unshared = _intervals_and_findings(monkeypatch)
    assert any(recorders) and not all(recorders)    # both paths ran inside nest batches
    assert any(unshared) and any(kept for kept in fast[1::2])     # rows out of the table, footprints kept
    monkeypatch.setattr(sync, "UNSHARED_ROWS", False)
    assert _intervals_and_findings(monkeypatch)[:2] == (fast, fast_findings)
    monkeypatch.setattr(sync, "RECORD_ROWS", False)
    slow, slow_findings, _ = _intervals_and_findings(monkeypatch)
    assert (slow, slow_findings) == (fast, fast_findings)


def test_a_direct_path_that_loses_rows_is_caught(monkeypatch):
    # (the comparison above can fail: a recorder that claims every row is certain differs somewhere)
    real = sync.BlockRun.row_recorder

    def overconfident(self, entry):
        recorder = real(self, entry)
        return recorder and (recorder[0], True, recorder[0].space == "global" and self.granules is not None)

    expected = _intervals_and_findings(monkeypatch)[:2]
    monkeypatch.setattr(sync.BlockRun, "row_recorder", overconfident)
    assert _intervals_and_findings(monkeypatch)[:2] != expected
