"""Lane-level memory predictions on small kernels whose hardware cost is worked out by hand in the
comments (32-byte sectors, 32 banks of 4 bytes)."""

import pytest

from kernelscope.analyze import analyze_source


def accesses(source, **options):
    options.setdefault("registers", "estimate")
    result = analyze_source(source, "k.cu", **options)
    assert result.kernels, result.errors
    return [a for a in result.kernels[0].memory.accesses]


def one(source, **options):
    found = accesses(source, **options)
    assert len(found) == 1, [a.expr for a in found]
    return found[0]


GLOBAL_1D = """
__global__ void k(const {T}* a, {T}* out) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[0] = a[{INDEX}];
}}
"""


@pytest.mark.parametrize("elem_type, index, pattern, sectors", [
    ("float", "i", "coalesced", 4),        # 32 lanes x 4 B = 128 B = 4 sectors
    ("double", "i", "coalesced", 8),       # 256 B
    ("float4", "i", "coalesced", 16),      # 512 B
    ("float", "0", "broadcast", 1),        # every lane the same word
    ("float", "2 * i", "strided", 8),      # 8-byte stride: 256 B span
    ("float", "8 * i", "strided", 32),     # 32-byte stride: one sector per lane
    ("float", "1024 * i", "strided", 32),
    ("float", "i + 1", "coalesced", 5),    # misaligned by one element: straddles a 5th sector
])
def test_global_sectors_per_request_match_hand_counts(elem_type, index, pattern, sectors):
    access = [a for a in accesses(GLOBAL_1D.format(T=elem_type, INDEX=index)) if a.op == "load"][0]
    assert access.pattern == pattern
    assert access.sectors_per_request == sectors


def test_two_dimensional_block_narrower_than_a_warp_puts_two_rows_in_each_warp():
    # block 16x16: a warp holds rows y and y+1, 16 floats each = 2 x 64 B = 4 sectors
    source = """
    __global__ void k(const float* m, float* out, int ld) {
      int r = blockIdx.y * blockDim.y + threadIdx.y;
      int c = blockIdx.x * blockDim.x + threadIdx.x;
      out[r * ld + c] = m[c * ld + r];
    }"""
    found = accesses(source, block=(16, 16, 1), bindings={"ld": 4096})
    store = next(a for a in found if a.op == "store")
    load = next(a for a in found if a.op == "load")
    assert store.sectors_per_request == 4 and store.pattern == "coalesced"
    # the transposed read: 16 columns far apart; a warp's two rows read adjacent words of the same
    # sector in each column -> 16 sectors
    assert load.sectors_per_request == 16 and load.pattern == "strided"
    assert load.stride_bytes == 4 * 4096


def test_symbolic_stride_is_reported_until_bound_then_exact():
    source = """
    __global__ void k(const float* m, float* out, int ld) {
      int r = blockIdx.x * blockDim.x + threadIdx.x;
      out[r] = m[r * ld];
    }"""
    unbound = next(a for a in accesses(source) if a.op == "load")
    assert unbound.pattern == "strided" and unbound.stride_bytes == "4*ld"
    bound = next(a for a in accesses(source, bindings={"ld": 2}) if a.op == "load")
    assert bound.stride_bytes == 8 and bound.sectors_per_request == 8


def test_indirect_access_gets_documented_worst_case():
    source = """
    __global__ void k(const float* a, const int* idx, float* out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = a[idx[i]];
    }"""
    gather = next(a for a in accesses(source) if a.array == "a")
    assert gather.pattern == "indirect" and gather.sectors_per_request == 32
    index_load = next(a for a in accesses(source) if a.array == "idx")
    assert index_load.pattern == "coalesced"


def test_array_of_structs_field_access_strides_by_struct_size():
    source = """
    struct P { float x, y, z; };
    __global__ void k(const P* p, float* out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = p[i].y;
    }"""
    field = next(a for a in accesses(source) if a.array == "p")
    # 12-byte stride, lanes span 384 B starting at byte 4: sectors 0..12 -> 12 distinct sectors
    assert field.stride_bytes == 12 and field.elem_bytes == 4
    assert field.sectors_per_request == 12


def test_helper_functions_macros_and_pointer_arithmetic_are_followed():
    source = """
    #define IDX(r, c, ld) ((r) * (ld) + (c))
    __device__ int row_of() { return blockIdx.y; }
    __global__ void k(const float* a, float* out, int ld) {
      const float* row = a + row_of() * ld;
      row += threadIdx.x;
      out[IDX(row_of(), threadIdx.x, ld)] = *row;
    }"""
    found = accesses(source, bindings={"ld": 1024}, block=(32, 1, 1))
    assert {a.pattern for a in found} == {"coalesced"}
    assert all(a.sectors_per_request == 4 for a in found)


def test_grid_stride_loop_weight_comes_from_trip_count():
    source = """
    __global__ void k(const float* a, float* out, int n) {
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = a[i];
    }
    void host(const float* a, float* out) { k<<<64, 256>>>(a, out, 1 << 20); }
    """
    # 2^20 elements over 64 x 256 threads: 64 iterations per thread
    found = accesses(source, bindings={"n": 1 << 20})
    assert all(a.exec_weight == 64 for a in found)
    assert all(a.pattern == "coalesced" for a in found)


@pytest.mark.parametrize("declaration, index, block, ways", [
    ("float t[32][32]", "t[threadIdx.x][0]", (32, 1, 1), 32),     # column of a 32x32 tile: one bank
    ("float t[32][33]", "t[threadIdx.x][0]", (32, 1, 1), 1),      # padded: 33 is coprime with 32
    ("float t[16][17]", "t[threadIdx.y][threadIdx.x]", (16, 16, 1), 2),  # words 0..15, 17..32: bank 0 twice
    ("float t[256]", "t[threadIdx.x * 2]", (256, 1, 1), 2),
    ("float t[1024]", "t[threadIdx.x * 4]", (256, 1, 1), 4),
    ("float t[256]", "t[0]", (256, 1, 1), 1),                      # broadcast
    ("double t[256]", "t[threadIdx.x]", (256, 1, 1), 1),           # 2 half-warp wavefronts, conflict-free
    ("float4 t[256]", "t[threadIdx.x]", (256, 1, 1), 4),           # .x alone: 4-byte loads 16 B apart
])
def test_shared_bank_ways_match_hand_counts(declaration, index, block, ways):
    source = f"""
    __global__ void k(float* out) {{
      __shared__ {declaration};
      out[threadIdx.x] = {index} {'.x' if 'float4' in declaration else ''};
    }}"""
    shared = [a for a in accesses(source, block=block) if a.space == "shared"]
    assert len(shared) == 1
    assert shared[0].bank_ways == ways


@pytest.mark.parametrize("vector_type, wavefronts", [("double", 2), ("float2", 2), ("float4", 4)])
def test_wide_shared_accesses_take_one_wavefront_per_half_or_quarter_warp(vector_type, wavefronts):
    source = f"""
    __global__ void k({vector_type}* out) {{
      __shared__ {vector_type} t[256];
      {vector_type} v = t[threadIdx.x];
      out[threadIdx.x] = v;
    }}"""
    shared = next(a for a in accesses(source, block=(256, 1, 1)) if a.space == "shared")
    assert shared.wavefronts_per_request == wavefronts
    assert shared.bank_ways == 1


def test_divergent_branch_share_is_computed_per_warp():
    source = """
    __global__ void k(float* out) {
      if (threadIdx.x % 2 == 0) out[threadIdx.x] = 1.0f;
      if (threadIdx.x < 64) out[threadIdx.x] = 2.0f;
    }"""
    result = analyze_source(source, "k.cu", block=(256, 1, 1), registers="estimate")
    branches = result.kernels[0].memory.branches
    assert branches[0].divergent and branches[0].share_true == 0.5 and branches[0].divergent_warps == 1.0
    assert branches[1].divergent is False  # warp-aligned: whole warps go one way


def test_partial_last_warp_counts_only_real_lanes():
    source = GLOBAL_1D.format(T="float", INDEX="i")
    load = [a for a in accesses(source, block=(48, 1, 1)) if a.op == "load"][0]
    # warp 0: 32 lanes (4 sectors); warp 1: 16 lanes (2 sectors) -> mean 3
    assert load.sectors_per_request == 3


EMBEDDING = """
__global__ void k(const float* weight, const int* idx, float* out, int dim) {
  long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
  long t = e / dim;
  int d = e - t * dim;
  out[e] = weight[(long)idx[t] * dim + d];
}
"""


def test_a_row_picked_by_data_shared_across_the_warp_keeps_its_pattern():
    # every lane of a warp reads the same idx[t] (dim = 512 > 32 lanes): the row is unknown, but the
    # warp reads 32 consecutive floats of it, 4 sectors (rows are 2 KiB apart, so sector-aligned)
    found = {a.expr: a for a in accesses(EMBEDDING, bindings={"dim": 512}, block=(256, 1, 1))}
    row = found["weight[(long)idx[t] * dim + d]"]
    assert row.pattern == "coalesced" and row.sectors_per_request == 4
    assert found["idx[t]"].sectors_per_request == 1


def test_a_gather_whose_index_differs_per_lane_stays_at_the_worst_case():
    source = "__global__ void k(const float* x, const int* idx, float* out) {\n" \
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = x[idx[i]];\n}\n"
    found = {a.expr: a for a in accesses(source, block=(256, 1, 1))}
    assert found["x[idx[i]]"].pattern == "indirect" and found["x[idx[i]]"].sectors_per_request == 32
