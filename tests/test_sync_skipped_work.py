"""The sync executor skips work that cannot change its result: accesses to arrays nothing writes,
and repeated accesses at an unknown address within one barrier interval. These check that what
does matter is still found (the JSON snapshots only show that nothing changed on known files)."""

from __future__ import annotations

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file


def kernel_of(body: str, params: str = "const float* x, float* y, int n"):
    source = f'extern "C" __global__ void k({params})\n{{\n{body}\n}}\n'
    model = parse_file(source, "k.cu")
    assert model.kernels, model.errors
    return model.kernels[0]


def analyze(body: str, bindings=None, **kwargs):
    return sync.analyze(kernel_of(body, **kwargs), (64, 1, 1), bindings or {}, grid=(2, 1, 1))


def test_only_accesses_to_arrays_nothing_writes_are_read_only():
    kernel = kernel_of("""
__shared__ float tile[64];
tile[threadIdx.x] = x[threadIdx.x];
__syncthreads();
y[threadIdx.x] = tile[63 - threadIdx.x] + x[threadIdx.x + 1];""")
    events = sync.program_order(kernel)
    sync.mark_read_only(events)
    read_only = {(e.record.array, e.record.op) for e in events if e.read_only}
    assert read_only == {("x", "load")}
    assert any(e.plain_access and e.record.array == "tile" and e.record.op == "load" for e in events)


def test_a_load_of_a_written_shared_array_in_a_loop_still_races():
    result = analyze("""
__shared__ float tile[64];
float s = 0.0f;
for (int k = 0; k < 4; k++) {
    tile[threadIdx.x] = x[k * 64 + threadIdx.x];
    s += tile[(threadIdx.x + k + 1) % 64];
}
y[threadIdx.x] = s;""")
    assert ("tile", "RAW") in {(r.array, r.kind) for r in result.shared_races}


def test_a_barrier_before_loads_of_a_written_array_is_still_needed():
    result = analyze("""
__shared__ float tile[64];
tile[threadIdx.x] = x[threadIdx.x];
__syncthreads();
float s = 0.0f;
for (int k = 0; k < 8; k++)
    s += tile[(threadIdx.x + k) % 64];
y[threadIdx.x] = s;""")
    assert not result.redundant_barriers and not result.shared_races


def test_a_read_only_array_at_an_unknown_address_is_still_noted():
    result = analyze("""
float s = 0.0f;
for (int k = 0; k < 4; k++)
    s += x[k * m + threadIdx.x];
y[threadIdx.x] = s;""", params="const float* x, float* y, int m")
    assert any("address of x[" in note for note in result.notes)
    assert not result.exact


def test_an_unknown_store_address_repeated_in_a_loop_still_keeps_the_barrier():
    # every store after the barrier is at an unknown address: one of them is enough to keep it
    result = analyze("""
__shared__ float tile[64];
tile[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int k = 0; k < 4; k++)
    tile[(threadIdx.x * m + k) % 64] = 0.0f;""", params="const float* x, float* y, int m")
    assert not result.redundant_barriers
    assert sum("address of tile[" in note for note in result.notes) == 1
