"""The `kernelscope analyze` contract (kernelscope/schemas/analysis-1.schema.json, docs/json-schema.md): options, exit statuses, JSON keys and types.

Expected values below come from the contract text and from arithmetic on the small kernels here
(for example: a warp reading 32 consecutive floats touches 4 sectors of 32 bytes).
"""

from __future__ import annotations

import json
import shutil
from numbers import Number
from pathlib import Path

import pytest
from click.testing import CliRunner

from kernelscope.cli import cli

TRICKY = Path(__file__).parent / "kernels" / "tricky"
# An environment in which no CUDA toolkit can be found.
NO_CUDA_TOOLS = {"PATH": "/nonexistent", "CUDA_HOME": "/nonexistent", "CUDA_PATH": "/nonexistent"}

# Loads and stores whose coalescing and bank behaviour follow from the access pattern alone.
PATTERNS = r"""
__global__ void patterns(const float* f, const double* d, const float4* v, float* out,
                         const float* table, int n)
{
    __shared__ float tile[256 * 33];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = f[i];
    double b = d[i];
    float4 c = v[i];
    float e = table[blockIdx.x];
    float g = f[i * 32];
    tile[threadIdx.x] = a;
    tile[threadIdx.x * 32 + 1] = e;
    __syncthreads();
    float h = tile[threadIdx.x * 33];
    for (int k = 0; k < n; ++k)
        a += f[k * blockDim.x + threadIdx.x];
    atomicAdd(out, a + (float)b + c.x + g + h);
    out[i] = a;
}
"""

DIVERGENT_BARRIER = r"""
__global__ void divergent(float* a)
{
    __shared__ float s[256];
    s[threadIdx.x] = a[threadIdx.x];
    if (threadIdx.x < 100) {
        __syncthreads();
        a[threadIdx.x] = s[255 - threadIdx.x];
    }
}
"""

CLEAN = r"""
__global__ void clean(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
"""

CONDITIONAL = r"""
#if FLAG
__global__ void only_with_flag(float* a) { a[threadIdx.x] = 1.0f; }
#endif
__global__ void always(float* a) { a[threadIdx.x] = 2.0f; }
"""


@pytest.fixture
def source(tmp_path):
    def write(text: str, name: str = "kernel.cu") -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return write


def analyze(*args: str, env=None):
    result = CliRunner().invoke(cli, ["analyze", *args], env=env)
    assert "Traceback" not in result.output, result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"analyze raised {result.exception!r}") from result.exception
    return result


def analyze_json(*args: str, env=None) -> dict:
    result = analyze("--format", "json", *args, env=env)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def only_kernel(document: dict, name: str | None = None) -> dict:
    [file_doc] = document["files"]
    kernels = file_doc["kernels"]
    if name is None:
        [kernel] = kernels
        return kernel
    return next(k for k in kernels if k["name"] == name)


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value) -> bool:
    return isinstance(value, Number) and not isinstance(value, bool)


# -- JSON document: keys and types ----------------------------------------------------------------

def test_json_document_has_every_contract_key_with_its_type(source):
    document = analyze_json("--registers", "estimate", source(PATTERNS))
    assert document["schema"] == "kernelscope.analysis/1"
    assert isinstance(document["diagnostics"], list)
    [file_doc] = document["files"]
    assert isinstance(file_doc["path"], str)
    assert file_doc["errors"] == []
    kernel = only_kernel(document)
    assert kernel["name"] == "patterns" and is_int(kernel["line"])
    assert len(kernel["block"]) == 3 and all(is_int(d) and d > 0 for d in kernel["block"])

    assert kernel["accesses"]
    for access in kernel["accesses"]:
        assert is_int(access["line"]) and is_int(access["column"])
        assert isinstance(access["expr"], str) and access["expr"]
        assert access["space"] in ("global", "shared", "local", "constant")
        assert access["op"] in ("load", "store", "atomic")
        assert is_int(access["elem_bytes"]) and access["elem_bytes"] > 0
        assert access["pattern"] in ("coalesced", "broadcast", "strided", "indirect", "unknown")
        # a number of bytes, or symbolic text such as "4*ld" when it depends on a parameter
        assert access["stride_bytes"] is None or is_int(access["stride_bytes"]) \
            or isinstance(access["stride_bytes"], str)
        assert "exec_weight" in access
        assert access["exec_weight"] is None or is_number(access["exec_weight"]) \
            or isinstance(access["exec_weight"], str)
        if access["space"] == "global":
            assert is_number(access["sectors_per_request"]) or access["sectors_per_request"] is None
        if access["space"] == "shared":
            assert is_number(access["bank_ways"]) or access["bank_ways"] is None
    assert {a["space"] for a in kernel["accesses"]} >= {"global", "shared"}

    occupancy = kernel["occupancy"]
    assert occupancy["arch"] == "sm_90"
    for key in ("block_size", "static_shared_bytes", "dynamic_shared_bytes", "active_blocks_per_sm"):
        assert is_int(occupancy[key]), key
    assert is_int(occupancy["registers"]) and occupancy["registers"] > 0
    assert occupancy["registers_source"] == "estimate"
    assert 0 < occupancy["theoretical_occupancy"] <= 1
    assert isinstance(occupancy["limiter"], str) and occupancy["limiter"]
    assert occupancy["sweep"]
    for point in occupancy["sweep"]:
        assert is_int(point["block_size"]) and is_int(point["active_blocks_per_sm"])
        assert 0 <= point["theoretical_occupancy"] <= 1

    intensity = kernel["intensity"]
    for key in ("flops_per_thread", "global_bytes_per_thread", "arithmetic_intensity"):
        assert intensity[key] is None or is_number(intensity[key]), key
    assert isinstance(intensity["bound"], str)

    sync = kernel["sync"]
    assert is_int(sync["barriers"]) and sync["barriers"] == 1
    assert isinstance(sync["divergent_barriers"], list) and isinstance(sync["shared_races"], list)
    assert is_int(sync["atomics"]) and sync["atomics"] == 1
    assert is_int(kernel["divergence"]["divergent_branches"]) \
        or isinstance(kernel["divergence"]["divergent_branches"], list)


def test_diagnostics_carry_contract_keys(source):
    document = analyze_json("--registers", "estimate", source(DIVERGENT_BARRIER))
    assert document["diagnostics"]
    for diagnostic in document["diagnostics"]:
        assert isinstance(diagnostic["rule"], str) and diagnostic["rule"]
        assert diagnostic["severity"] in ("info", "warning", "error")
        assert isinstance(diagnostic["path"], str)
        assert is_int(diagnostic["line"]) and is_int(diagnostic["column"])
        assert isinstance(diagnostic["message"], str) and diagnostic["message"]
        assert diagnostic["kernel"] is None or diagnostic["kernel"] == "divergent"


# -- documented meaning of the access fields --------------------------------------------------------

def _access(kernel: dict, expr_start: str, op: str | None = None) -> dict:
    matches = [a for a in kernel["accesses"]
               if a["expr"].replace(" ", "").startswith(expr_start) and (op is None or a["op"] == op)]
    assert matches, f"no access {expr_start} in {[a['expr'] for a in kernel['accesses']]}"
    return matches[0]


@pytest.mark.parametrize("expr,pattern,sectors", [
    ("f[i]", "coalesced", 4),        # 32 lanes x 4 bytes = 128 bytes = 4 sectors
    ("d[i]", "coalesced", 8),        # 32 x 8 bytes
    ("v[i]", "coalesced", 16),       # 32 x 16-byte vectors
    ("table[blockIdx.x]", "broadcast", 1),
    ("f[i*32]", "strided", 32),      # 128-byte stride: every lane its own sector
])
def test_sectors_per_request_follow_the_documented_examples(source, expr, pattern, sectors):
    kernel = only_kernel(analyze_json("--registers", "estimate", "--block", "256", source(PATTERNS)))
    access = _access(kernel, expr, "load")
    assert access["space"] == "global"
    assert access["pattern"] == pattern
    assert access["sectors_per_request"] == sectors


@pytest.mark.parametrize("expr,op,ways", [
    ("tile[threadIdx.x]", "store", 1),            # consecutive words: conflict-free
    ("tile[threadIdx.x*32+1]", "store", 32),      # stride 32 words: all lanes in one bank
    ("tile[threadIdx.x*33]", "load", 1),          # stride 33 words: 33 mod 32 = 1, conflict-free
])
def test_bank_ways_follow_the_word_stride(source, expr, op, ways):
    kernel = only_kernel(analyze_json("--registers", "estimate", "--block", "256", source(PATTERNS)))
    access = _access(kernel, expr, op)
    assert access["space"] == "shared"
    assert access["bank_ways"] == ways


def test_arg_binding_makes_loop_weight_numeric(source):
    path = source(PATTERNS)
    kernel = only_kernel(analyze_json("--registers", "estimate", "--arg", "n=64", path))
    assert _access(kernel, "f[k*blockDim.x", "load")["exec_weight"] == 64
    assert _access(kernel, "f[i]", "load")["exec_weight"] == 1


# -- options ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,shape", [("256", [256, 1, 1]), ("16x16", [16, 16, 1]), ("8x8x4", [8, 8, 4])])
def test_block_option_sets_shape_when_no_launch_site_gives_one(source, text, shape):
    kernel = only_kernel(analyze_json("--registers", "estimate", "--block", text, source(CLEAN)))
    assert kernel["block"] == shape
    assert kernel["occupancy"]["block_size"] == shape[0] * shape[1] * shape[2]


def test_launch_site_block_wins_over_block_option():
    document = analyze_json("--registers", "estimate", "--block", "64", str(TRICKY / "launch_sites.cu"))
    assert only_kernel(document, "transpose")["block"] == [16, 16, 1]
    assert only_kernel(document, "axpy")["block"] == [256, 1, 1]


def test_dynamic_smem_option_reaches_occupancy(source):
    kernel = only_kernel(analyze_json("--registers", "estimate", "--dynamic-smem", "4096", source(CLEAN)))
    assert kernel["occupancy"]["dynamic_shared_bytes"] == 4096


def test_arch_option_reaches_occupancy(source):
    kernel = only_kernel(analyze_json("--registers", "estimate", "--arch", "sm_80", source(CLEAN)))
    assert kernel["occupancy"]["arch"] == "sm_80"


def test_define_without_value_counts_as_one(source):
    path = source(CONDITIONAL)
    without = analyze_json("--registers", "estimate", path)
    with_flag = analyze_json("--registers", "estimate", "-D", "FLAG", path)
    assert [k["name"] for k in without["files"][0]["kernels"]] == ["always"]
    assert sorted(k["name"] for k in with_flag["files"][0]["kernels"]) == ["always", "only_with_flag"]


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc on PATH")
def test_registers_from_ptxas_when_asked(source):
    kernel = only_kernel(analyze_json("--registers", "ptxas", source(CLEAN)))
    assert kernel["occupancy"]["registers_source"] == "ptxas"
    assert is_int(kernel["occupancy"]["registers"]) and kernel["occupancy"]["registers"] > 0


def test_registers_auto_falls_back_to_estimate_without_nvcc(source):
    kernel = only_kernel(analyze_json("--registers", "auto", source(CLEAN), env=NO_CUDA_TOOLS))
    assert kernel["occupancy"]["registers_source"] == "estimate"


def test_text_format_is_default_and_names_kernels(source):
    result = analyze("--registers", "estimate", source(CLEAN))
    assert result.exit_code == 0, result.output
    assert "clean" in result.stdout
    with pytest.raises(json.JSONDecodeError):
        json.loads(result.stdout)


def test_several_paths_give_one_file_entry_each_in_order(source):
    first, second = source(CLEAN, "first.cu"), source(CONDITIONAL, "second.cu")
    document = analyze_json("--registers", "estimate", first, second)
    assert [Path(f["path"]).name for f in document["files"]] == ["first.cu", "second.cu"]


# -- exit statuses ----------------------------------------------------------------------------------

def test_exit_0_for_clean_kernel(source):
    assert analyze("--format", "json", "--registers", "estimate", source(CLEAN)).exit_code == 0


def test_exit_1_when_findings_include_an_error(source):
    result = analyze("--format", "json", "--registers", "estimate", source(DIVERGENT_BARRIER))
    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    assert any(d["severity"] == "error" for d in document["diagnostics"])
    assert only_kernel(document)["sync"]["divergent_barriers"]


@pytest.mark.parametrize("name", sorted(p.name for p in TRICKY.glob("*.cu")))
def test_exit_status_is_1_exactly_when_an_error_finding_exists(name):
    result = analyze("--format", "json", "--registers", "estimate", str(TRICKY / name))
    assert result.exit_code in (0, 1), result.output
    has_error = any(d["severity"] == "error" for d in json.loads(result.stdout)["diagnostics"])
    assert result.exit_code == (1 if has_error else 0)


BAD_USAGE = [
    [],                                          # no PATH
    ["--format", "xml"],
    ["--block", "0x4"],
    ["--block", "2048"],
    ["--block", "16x16x16"],
    ["--block", "wide"],
    ["--arg", "n"],
    ["--arg", "n=lots"],
    ["--arg", "1n=4"],
    ["--registers", "guess"],
    ["--arch", "banana"],
    ["--dynamic-smem", "-1"],
    ["--dynamic-smem", "many"],
    ["-D", "1BAD=2"],
    ["--no-such-option"],
]


@pytest.mark.parametrize("options", BAD_USAGE, ids=lambda o: " ".join(o) or "no-path")
def test_bad_usage_exits_2_with_one_line(source, options):
    paths = [] if options == [] else [source(CLEAN)]
    result = analyze(*options, *paths)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.strip(), "an explanation on stderr"
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("make_path", ["missing", "directory_without_cuda"])
def test_unusable_path_exits_2_with_one_line(tmp_path, make_path):
    path = tmp_path / "nothing_here.cu"
    if make_path == "directory_without_cuda":
        path = tmp_path / "empty_dir"
        path.mkdir()
    result = analyze("--format", "json", str(path))
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_registers_ptxas_without_nvcc_exits_2_with_one_line(source):
    result = analyze("--registers", "ptxas", source(CLEAN), env=NO_CUDA_TOOLS)
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1
