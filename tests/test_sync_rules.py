"""Focused behaviour of the sync analysis and the uniformity levels, one rule at a time."""

from __future__ import annotations

import json

import pytest

from kernelscope import symbolic as sx
from kernelscope.analyses import sync, threads
from kernelscope.frontend import parse_file
from kernelscope.rules import sync as sync_rules


def kernel_of(body: str, params: str = "const float* in, float* out, int n"):
    source = f'extern "C" __global__ void k({params})\n{{\n{body}\n}}\n'
    model = parse_file(source, "k.cu")
    assert model.kernels, model.errors
    return model.kernels[0]


def rules(body: str, block=(128, 1, 1), bindings=None, params: str = "const float* in, float* out, int n"):
    kernel = kernel_of(body, params)
    result = sync.analyze(kernel, block, bindings or {})
    return [(d.rule, d.line) for d in sync_rules.findings(result, kernel, "k.cu")]


def codes(body: str, **kwargs) -> set:
    return {rule for rule, _ in rules(body, **kwargs)}


# -- barriers -------------------------------------------------------------------------------------

def test_barrier_under_parameter_condition_is_uniform():
    body = """
    __shared__ float s[128];
    s[threadIdx.x] = in[threadIdx.x];
    if (n > 4) {
        __syncthreads();
        out[threadIdx.x] = s[127 - threadIdx.x];
    }"""
    assert "KS201" not in codes(body)


def test_barrier_under_lane_parity_is_divergent_at_its_line():
    body = """
    __shared__ float s[128];
    s[threadIdx.x] = in[threadIdx.x];
    if (threadIdx.x % 2 == 0)
        __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];"""
    assert ("KS201", 7) in rules(body)


@pytest.mark.parametrize("n, divergent", [(128, False), (192, False), (100, True), (None, True)])
def test_loop_with_thread_start_diverges_only_when_trip_counts_differ(n, divergent):
    body = """
    __shared__ float s[64];
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += 64) {
        s[threadIdx.x] = in[i];
        __syncthreads();
        acc += s[63 - threadIdx.x];
        __syncthreads();
    }
    out[threadIdx.x] = acc;"""
    bindings = {} if n is None else {"n": n}
    assert ("KS201" in codes(body, block=(64, 1, 1), bindings=bindings)) == divergent


def test_return_before_barrier_depends_on_the_grid_when_known():
    body = """
    __shared__ float s[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[threadIdx.x ^ 1];"""
    assert ("KS206", 7) in rules(body, bindings={"n": 200, "gridDim.x": 2})
    kernel = kernel_of(body)
    assert sync.analyze(kernel, (128, 1, 1), {"n": 200}, grid=(2, 1, 1)).returns_before_barrier
    assert "KS206" not in codes(body, bindings={"n": 256, "gridDim.x": 2})
    assert "KS206" in codes(body)   # unknown grid: the condition reads threadIdx, so some threads may leave


def test_block_uniform_return_is_fine():
    body = """
    __shared__ float s[128];
    if (blockIdx.x * blockDim.x >= n)
        return;
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[127 - threadIdx.x];"""
    assert not codes(body) & {"KS201", "KS206"}


def test_group_sync_skipped_by_whole_warps_is_not_called_divergent():
    # `tile.sync()` of a 32-thread tile and `block.sync()` look alike to the front end; a sync that
    # whole warps skip is fine for a tile, so only one that splits a warp is reported
    source = """#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void k(float* out)
{
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    if (threadIdx.x < 32)
        tile.sync();
    if (threadIdx.x < 16)
        tile.sync();
    out[threadIdx.x] = 1.0f;
}
"""
    kernel = parse_file(source, "k.cu").kernels[0]
    result = sync.analyze(kernel, (128, 1, 1))
    assert [d.line for d in result.divergent_barriers] == [9]


def test_value_barriers_are_counted_and_never_redundant():
    kernel = kernel_of("int any = __syncthreads_or(in[threadIdx.x] > 0.0f);\nout[threadIdx.x] = any;")
    result = sync.analyze(kernel, (128, 1, 1))
    assert result.barriers == 1
    assert not result.redundant_barriers


# -- races ----------------------------------------------------------------------------------------

def test_neighbour_read_without_barrier_is_a_block_race_with_both_lines():
    kernel = kernel_of("""
    __shared__ float s[128];
    s[threadIdx.x] = in[threadIdx.x];
    out[threadIdx.x] = s[(threadIdx.x + 1) % 128];""")
    result = sync.analyze(kernel, (128, 1, 1))
    [race] = result.shared_races
    assert (race.array, race.kind, race.first_line, race.second_line, race.scope) == ("s", "RAW", 5, 6, "block")


def test_barrier_between_store_and_load_removes_the_race():
    assert "KS202" not in codes("""
    __shared__ float s[128];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 1) % 128];""")


def test_padded_transpose_tile_is_race_free_and_unpadded_without_barrier_races():
    body = """
    __shared__ float tile[32][33];
    for (int j = 0; j < 32; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(threadIdx.y + j) * 32 + threadIdx.x];
    {barrier}
    for (int j = 0; j < 32; j += 8)
        out[(threadIdx.y + j) * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y + j];"""
    assert not codes(body.replace("{barrier}", "__syncthreads();"), block=(32, 8, 1))
    assert "KS202" in codes(body.replace("{barrier}", ""), block=(32, 8, 1))


def test_double_buffer_needs_one_barrier_but_a_single_buffer_needs_two():
    double = """
    __shared__ float buf[2][128];
    float acc = 0.0f;
    for (int k = 0; k < 4; ++k) {
        buf[k & 1][threadIdx.x] = in[k * 128 + threadIdx.x];
        __syncthreads();
        acc += buf[k & 1][127 - threadIdx.x];
    }
    out[threadIdx.x] = acc;"""
    assert "KS202" not in codes(double)
    assert "KS202" in codes(double.replace("[k & 1]", "[0]"))


def test_lanes_exchanging_through_shared_memory_need_syncwarp():
    body = """
    __shared__ float s[64];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 32) {
        float v = s[threadIdx.x] + s[threadIdx.x + 32];
        s[threadIdx.x] = v;
        {sync}
        v += s[threadIdx.x + 16];
        {sync}
        s[threadIdx.x] = v;
    }"""
    assert codes(body.replace("{sync}", ""), block=(64, 1, 1)) & {"KS202", "KS207"} == {"KS207"}
    assert not codes(body.replace("{sync}", "__syncwarp();"), block=(64, 1, 1)) & {"KS202", "KS207"}


def test_guarded_halo_stores_by_different_threads_do_not_race():
    assert "KS202" not in codes("""
    __shared__ float row[130];
    int t = threadIdx.x;
    row[t + 1] = in[t];
    if (t == 0)
        row[0] = 0.0f;
    if (t == blockDim.x - 1)
        row[t + 2] = 0.0f;
    __syncthreads();
    out[t] = row[t] + row[t + 1] + row[t + 2];""")


def test_unknown_shared_index_is_not_reported_as_a_race():
    result = sync.analyze(kernel_of("""
    __shared__ float s[128];
    int j = (int)in[threadIdx.x];
    s[j] = 1.0f;
    out[threadIdx.x] = s[threadIdx.x];""", params="const float* in, float* out"), (128, 1, 1))
    assert not result.shared_races
    assert not result.exact


# -- redundant barriers, atomics, masks, fences ------------------------------------------------------

def test_barrier_that_only_orders_a_threads_own_slot_is_redundant():
    body = """
    __shared__ float s[128];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[{index}];"""
    assert ("KS203", 6) in rules(body.replace("{index}", "threadIdx.x"))
    assert "KS203" not in codes(body.replace("{index}", "threadIdx.x ^ 1"))


def test_trailing_loop_barrier_is_kept_even_when_the_bound_gives_one_iteration():
    body = """
    __shared__ float s[128];
    float acc = 0.0f;
    for (int k = 0; k < n; k += 128) {
        s[threadIdx.x] = in[k + threadIdx.x];
        __syncthreads();
        acc += s[127 - threadIdx.x];
        __syncthreads();
    }
    out[threadIdx.x] = acc;"""
    assert "KS203" not in codes(body, bindings={"n": 128})
    assert "KS203" not in codes(body, bindings={"n": 512})


@pytest.mark.parametrize("statement, lanes", [
    ("atomicAdd(&out[0], in[threadIdx.x]);", 32),
    ("atomicAdd(&out[threadIdx.x / 8], in[threadIdx.x]);", 8),
    ("atomicAdd(&out[threadIdx.x], in[threadIdx.x]);", 0),
    ("if ((threadIdx.x & 31) == 0) atomicAdd(&out[0], in[threadIdx.x]);", 0),
])
def test_atomic_contention_counts_lanes_on_one_address(statement, lanes):
    result = sync.analyze(kernel_of(statement), (128, 1, 1))
    assert result.atomic_count == 1
    assert [c.lanes for c in result.contention] == ([lanes] if lanes else [])


def test_atomics_in_loops_are_counted():
    result = sync.analyze(kernel_of("for (int k = 0; k < 4; ++k) atomicAdd(&out[threadIdx.x], 1.0f);"), (64, 1, 1))
    assert (result.atomic_count, result.atomics_in_loops) == (1, 1)


@pytest.mark.parametrize("condition, mask, wrong", [
    ("threadIdx.x < 16", "0xffffffffu", True),
    ("threadIdx.x < 16", "0x0000ffffu", False),
    ("threadIdx.x / 32 == 0", "0xffffffffu", False),      # whole warps take the branch
    ("threadIdx.x % 2 == 0", "0x55555555u", False),
    ("threadIdx.x % 2 == 0", "0xffffffffu", True),
    ("in[threadIdx.x] > 0.0f", "0xffffffffu", True),      # data decides: lanes may be missing
])
def test_shuffle_mask_must_name_exactly_the_lanes_that_call(condition, mask, wrong):
    body = f"""
    float v = in[threadIdx.x];
    if ({condition})
        v += __shfl_xor_sync({mask}, v, 2);
    out[threadIdx.x] = v;"""
    assert ("KS205" in codes(body, block=(64, 1, 1))) == wrong


def test_full_mask_in_a_partial_last_warp_is_fine():
    # lanes past the end of the block do not exist, so they count as exited
    assert "KS205" not in codes("out[threadIdx.x] = __shfl_down_sync(0xffffffffu, in[threadIdx.x], 1);",
                                block=(48, 1, 1))


def test_threadfence_is_reported_as_information():
    kernel = kernel_of("out[blockIdx.x] = in[0];\n__threadfence();")
    found = sync_rules.findings(sync.analyze(kernel, (32, 1, 1)), kernel, "k.cu")
    assert [(d.rule, d.severity) for d in found] == [("KS208", "info")]


def test_json_has_the_contract_keys():
    kernel = kernel_of("""
    __shared__ float s[128];
    s[threadIdx.x] = in[threadIdx.x];
    out[threadIdx.x] = s[(threadIdx.x + 1) % 128];
    atomicAdd(&out[0], 1.0f);""")
    document = sync.analyze(kernel, (128, 1, 1)).to_json()
    json.dumps(document)
    assert document["barriers"] == 0
    assert set(document) >= {"barriers", "divergent_barriers", "shared_races", "atomics"}
    assert set(document["shared_races"][0]) >= {"array", "kind", "first_line", "second_line", "message"}
    assert document["atomics"] == 1 and document["atomic_details"]["same_address_contention"] == 1


def test_every_sync_rule_checks_its_own_findings():
    from kernelscope import rules

    family = rules.matching("KS2")
    assert [r.code for r in family] == [f"KS20{k}" for k in range(1, 10)]
    assert all(r.has_check for r in family)


# -- uniformity -----------------------------------------------------------------------------------

@pytest.mark.parametrize("expr, level", [
    (sx.Sym("n"), threads.LEVEL_GRID),
    (sx.binary("*", sx.Sym("blockIdx.x"), sx.Sym("blockDim.x")), threads.LEVEL_BLOCK),
    (sx.binary("/", sx.Sym("threadIdx.x"), 32), threads.LEVEL_WARP),
    (sx.binary("%", sx.Sym("threadIdx.x"), 2), threads.LEVEL_THREAD),
    (sx.binary("<", sx.Sym("threadIdx.x"), sx.Sym("n")), threads.LEVEL_THREAD),
])
def test_uniformity_levels(expr, level):
    assert threads.classify(expr, (128, 1, 1), {}) == level


def test_threadidx_y_is_warp_uniform_when_rows_are_whole_warps():
    row = sx.Sym("threadIdx.y")
    assert threads.classify(row, (32, 8, 1)) == threads.LEVEL_WARP
    assert threads.classify(row, (16, 16, 1)) == threads.LEVEL_THREAD


def test_divergent_branches_are_those_that_split_warps():
    kernel = kernel_of("""
    if (threadIdx.x < 64) out[threadIdx.x] = 1.0f;
    if (threadIdx.x % 3 == 0) out[threadIdx.x] = 2.0f;
    if (n > 2) out[0] = 3.0f;""")
    assert [b.line for b in threads.divergent_branches(kernel, (128, 1, 1))] == [5]
