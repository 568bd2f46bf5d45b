"""Races the sync analysis finds beyond shared memory inside a known grid: inside one block without
a grid, in global memory (inside a block and between blocks), with cooperative-groups barriers, with
atomics that hand out slots, and one-store races in a one-warp block."""

from __future__ import annotations

from kernelscope.analyses import sync
from kernelscope.rules import sync as sync_rules
from kernel_bodies import kernel_of

CG = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"


def findings(body: str, block=(128, 1, 1), grid=None, bindings=None, prefix: str = "",
             params: str = "const float* x, float* y, int n", block_assumed: bool = False) -> list:
    kernel = kernel_of(body, params, prefix)
    result = sync.analyze(kernel, block, bindings or {}, grid=grid, block_assumed=block_assumed)
    return [(d.rule, d.line) for d in sync_rules.findings(result, kernel, "k.cu")]


def rules(body: str, **kwargs) -> set:
    return {rule for rule, _ in findings(body, **kwargs)}


# -- no grid --------------------------------------------------------------------------------------

BLOCKIDX_OFFSET_RACE = """
__shared__ float tile[256];
int base = (blockIdx.x % 2) * 128;
tile[base + threadIdx.x] = x[blockIdx.x * 128 + threadIdx.x];
y[blockIdx.x * 128 + threadIdx.x] = tile[base + (threadIdx.x + 1) % 128];"""


def test_a_shared_race_at_a_blockidx_dependent_address_is_found_without_a_grid():
    assert ("KS202", 7) in findings(BLOCKIDX_OFFSET_RACE)
    assert ("KS202", 7) in findings(BLOCKIDX_OFFSET_RACE, grid=(4, 1, 1))


def test_the_same_exchange_behind_a_barrier_is_clean_without_a_grid():
    fixed = BLOCKIDX_OFFSET_RACE.replace("y[blockIdx", "__syncthreads();\ny[blockIdx")
    assert not rules(fixed) & {"KS202", "KS207", "KS209"}


def test_a_barrier_under_a_blockidx_condition_is_uniform_without_a_grid():
    body = """
    __shared__ float tile[128];
    if (blockIdx.x % 2 == 0) {
        tile[threadIdx.x] = x[threadIdx.x];
        __syncthreads();
        y[threadIdx.x] = tile[127 - threadIdx.x];
    }"""
    assert not rules(body) & {"KS201", "KS202"}


# -- global memory inside a block -------------------------------------------------------------------

def test_an_in_place_neighbour_read_races_in_global_memory():
    body = """int i = blockIdx.x * blockDim.x + threadIdx.x;
if (i + 1 < n) y[i] = 0.5f * (y[i] + y[i + 1]);"""
    assert ("KS209", 4) in findings(body, params="float* y, int n")
    separate = body.replace("(y[i] + y[i + 1])", "(x[i] + x[i + 1])")
    assert "KS209" not in rules(separate)


def test_a_barrier_orders_a_blocks_exchange_through_global_scratch():
    body = """int i = blockIdx.x * 128 + threadIdx.x;
scratch[i] = 2.0f * x[i];
BARRIER
y[i] = scratch[blockIdx.x * 128 + (threadIdx.x + 1) % 128];"""
    params = "const float* x, float* scratch, float* y"
    assert "KS209" in rules(body.replace("BARRIER", ""), grid=(4, 1, 1), params=params)
    assert "KS209" not in rules(body.replace("BARRIER", "__syncthreads();"), grid=(4, 1, 1), params=params)


def test_a_condition_that_reads_memory_keeps_global_accesses_out():
    # the ticket decides which block reads; the analysis cannot know that only one does
    body = """__shared__ bool last;
if (threadIdx.x == 0) { y[blockIdx.x] = x[blockIdx.x]; last = atomicAdd(count, 1) == gridDim.x - 1; }
__syncthreads();
if (last && threadIdx.x == 0) { float s = 0.0f; for (int b = 0; b < 4; b++) s += y[b]; y[4] = s; }"""
    params = "const float* x, float* y, int* count"
    assert "KS209" not in rules(body, params=params, grid=(4, 1, 1))


def test_atomic_slots_are_distinct_so_compaction_does_not_race():
    params = "const float* x, float* y, int* count"
    compaction = "int slot = atomicAdd(count, 1);\ny[slot] = x[blockIdx.x * 128 + threadIdx.x];"
    assert "KS209" not in rules(compaction, params=params, grid=(4, 1, 1))
    neighbour = compaction + "\nfloat v = y[slot ^ 1];\ny[slot] += v;"
    assert "KS209" in rules(neighbour, params=params, grid=(4, 1, 1))


def test_threads_storing_one_value_to_one_address_are_benign():
    assert "KS209" not in rules("y[blockIdx.x] = 1.0f;")
    assert ("KS209", 3) in findings("y[blockIdx.x] = x[blockIdx.x * 128 + threadIdx.x];")


# -- between blocks ---------------------------------------------------------------------------------

def test_every_block_storing_its_result_to_one_address_races_between_blocks():
    body = """__shared__ float part[128];
part[threadIdx.x] = x[blockIdx.x * 128 + threadIdx.x];
__syncthreads();
if (threadIdx.x == 0) *y = part[0] + part[1];"""
    assert ("KS209", 6) in findings(body, grid=(4, 1, 1))
    assert ("KS209", 6) in findings(body)    # block 0 against block 1 without a grid
    assert "KS209" not in rules(body.replace("*y = part[0] + part[1]", "atomicAdd(y, part[0])"), grid=(4, 1, 1))


def test_a_barrier_does_not_order_a_neighbour_block():
    body = """int i = blockIdx.x * 128 + threadIdx.x;
float v = y[i];
__syncthreads();
if (i < n) y[i + 1] = v;"""
    found = findings(body, params="float* y, int n", grid=(4, 1, 1), bindings={"n": 512})
    assert ("KS209", 6) in found


def test_blocks_alike_along_an_axis_the_kernel_ignores_are_compared_only_with_a_grid():
    body = "if (threadIdx.x == 0) y[0] = y[0] + 1.0f;"
    assert "KS209" in rules(body, grid=(4, 1, 1), params="float* y")
    assert "KS209" not in rules(body, params="float* y")     # a one-block launch is as likely


def test_an_assumed_block_shape_compares_no_blocks():
    # written for 64 threads: in an assumed 256-thread block, neighbours would seem to overlap
    body = "int i = blockIdx.x * 64 + threadIdx.x;\ny[i] = x[i];"
    assert "KS209" in rules(body, block=(256, 1, 1), grid=(4, 1, 1))
    assert "KS209" not in rules(body, block=(256, 1, 1), grid=(4, 1, 1), block_assumed=True)


# -- cooperative groups ------------------------------------------------------------------------------

def test_cg_sync_free_function_is_a_block_barrier():
    body = """__shared__ float tile[128];
cg::thread_block block = cg::this_thread_block();
tile[threadIdx.x] = x[threadIdx.x];
SYNC
y[threadIdx.x] = tile[127 - threadIdx.x];"""
    assert "KS202" in rules(body.replace("SYNC", ""), prefix=CG)
    assert "KS202" not in rules(body.replace("SYNC", "cg::sync(block);"), prefix=CG)
    assert "KS202" not in rules(body.replace("SYNC", "block.sync();"), prefix=CG)


def test_a_grid_sync_orders_blocks_and_a_block_barrier_does_not():
    body = """cg::grid_group grid = cg::this_grid();
int i = blockIdx.x * 128 + threadIdx.x;
scratch[i] = 2.0f * x[i];
SYNC
y[i] = scratch[(i + 128) % 512];"""
    params = "const float* x, float* scratch, float* y"
    for sync_call in ("grid.sync();", "cg::sync(grid);", "cg::this_grid().sync();"):
        assert "KS209" not in rules(body.replace("SYNC", sync_call), prefix=CG, grid=(4, 1, 1), params=params), \
            sync_call
    assert "KS209" in rules(body.replace("SYNC", "__syncthreads();"), prefix=CG, grid=(4, 1, 1), params=params)


def test_a_warp_tile_sync_orders_its_warp_but_not_the_block():
    body = """__shared__ float buf[128];
cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
buf[threadIdx.x] = x[threadIdx.x];
tile.sync();
y[threadIdx.x] = buf[READ];"""
    assert "KS202" in rules(body.replace("READ", "(threadIdx.x + 32) % 128"), prefix=CG)
    assert not rules(body.replace("READ", "threadIdx.x ^ 1"), prefix=CG) & {"KS202", "KS207"}


def test_a_16_lane_tile_sync_orders_only_its_own_tile():
    body = """__shared__ float buf[128];
cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
buf[threadIdx.x] = x[threadIdx.x];
tile.sync();
y[threadIdx.x] = buf[READ];"""
    assert rules(body.replace("READ", "threadIdx.x ^ 16"), prefix=CG) & {"KS202", "KS207"}
    assert not rules(body.replace("READ", "threadIdx.x ^ 1"), prefix=CG) & {"KS202", "KS207"}


# -- one warp -----------------------------------------------------------------------------------------

def test_lanes_of_a_one_warp_block_storing_one_address_is_an_error_with_the_right_fix():
    body = """__shared__ float last;
last = x[threadIdx.x];
__syncwarp();
y[threadIdx.x] = last;"""
    kernel = kernel_of(body)
    result = sync.analyze(kernel, (32, 1, 1), {})
    found = [d for d in sync_rules.findings(result, kernel, "k.cu") if d.rule in ("KS202", "KS207")]
    assert [(d.rule, d.severity, d.line) for d in found] == [("KS202", "error", 4)]
    assert "no barrier can order them" in found[0].message and "__syncwarp" not in found[0].message.split(":")[1][:40]
    one_lane = body.replace("last = x", "if (threadIdx.x == 0) last = x")
    assert not rules(one_lane, block=(32, 1, 1)) & {"KS202", "KS207"}


def test_global_races_appear_in_the_json():
    kernel = kernel_of("y[blockIdx.x] = x[threadIdx.x];")
    document = sync.analyze(kernel, (64, 1, 1), {}).to_json()
    assert [(r["array"], r["kind"], r["scope"]) for r in document["global_races"]] == [("y", "WAW", "block")]
    assert document["shared_races"] == []
